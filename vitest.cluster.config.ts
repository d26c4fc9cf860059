import { defineConfig } from 'vitest/config'

/** `npm run test:cluster`: PostgreSQL, three shards and HAProxy (test/cluster/harness.ts). */
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.cluster.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
})
