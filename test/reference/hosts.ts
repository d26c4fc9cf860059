/**
 * Hosts and URLs as the reports compare them: a website's host, a citation's host (the WHATWG URL
 * standard's hostname), "the site or a subdomain of it", and a cited URL's identity.
 */

/**
 * Host of a domain's website in the compared form: the URL's host when it contains `://`, else
 * the bare host (read as a URL too, so a path or port is ignored). See `compared`.
 */
export function websiteHost(website: string | null): string | null {
  if (website === null) return null
  let host: string
  try {
    host = new URL(website.includes('://') ? website : `http://${website}`).hostname
  } catch {
    host = website.toLowerCase()
  }
  const h = compared(host)
  return h === '' ? null : h
}

/**
 * A host as compared: lower case, a leading `www.` ignored (semantics.md section 4), and a
 * trailing dot ignored (`acme.com.` is the fully qualified `acme.com`; the spec is silent, this
 * is the engine's reading too).
 */
function compared(host: string): string {
  let h = host.toLowerCase()
  if (h.endsWith('.')) h = h.slice(0, -1)
  return h.startsWith('www.') ? h.slice(4) : h
}

/**
 * The host of a citation URL in the compared form, as the WHATWG URL standard parses it (so
 * `https://evil.net\@acme.com/` is on evil.net, and the port is not part of it).
 */
export function urlHost(url: string): string {
  return compared(new URL(url).hostname)
}

/** Whether `host` (compared form) is the site or a subdomain of it; never when there is no site. */
export function isSiteOrSubdomain(host: string, siteHost: string | null): boolean {
  return siteHost !== null && (host === siteHost || host.endsWith(`.${siteHost}`))
}

/** Whether a citation URL's host is the site or a subdomain of it. */
export function citesSite(url: string, siteHost: string | null): boolean {
  return isSiteOrSubdomain(urlHost(url), siteHost)
}

/**
 * A cited URL's identity (extensions section 6): the WHATWG serialization without the fragment
 * (`https://Acme.com:443/a#x` is `https://acme.com/a`).
 */
export function citedUrl(url: string): string {
  const u = new URL(url)
  u.hash = ''
  return u.href
}
