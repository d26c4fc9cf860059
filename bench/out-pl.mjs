import pl from 'nodejs-polars'
const a = pl.DataFrame({ aidx: Int32Array.from([0,1,2,3]), day: Int32Array.from([10,10,11,12]), prompt: Int32Array.from([0,1,0,1]) })
const m = pl.DataFrame({ aidx: Int32Array.from([0,0,1,2,3,3]), entity: Int32Array.from([0,1,0,1,0,2]), pos: Int32Array.from([1,2,0,1,2,1]) })
const w = a.filter(pl.col('day').gtEq(10).and(pl.col('day').ltEq(11)))
const j = m.join(w, { on: 'aidx' })
const g = j.groupBy(['day','entity']).agg(pl.len().alias('n'), pl.col('pos').sum().alias('ps'), pl.col('pos').gt(0).sum().alias('pn'), pl.col('prompt').nUnique().alias('u'))
console.log(g.toString(), g.getColumn('n').toArray(), g.dtypes, g.toRecords())
const lz = m.lazy().join(w.lazy(), {on:'aidx'}).groupBy('entity').agg(pl.col('prompt').nUnique().alias('tq')).collectSync()
console.log(lz.toRecords())
