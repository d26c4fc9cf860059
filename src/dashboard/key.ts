/**
 * @module The API key of the page: read from the URL fragment (`#key=...`, then removed from the
 * address bar) or typed into the form, kept in sessionStorage only (this tab, gone when it
 * closes), never put in a URL and never logged.
 */

/** The sessionStorage entry holding the key. */
export const KEY_STORAGE = 'visibility-analytics.key'

/**
 * The key of the fragment `#key=...`, stored; the fragment is removed from the address bar (and
 * from the history entry) whatever it held. Null when the fragment names no key.
 * @example
 * takeKeyFromFragment(window.location, window.history, window.sessionStorage)
 */
export function takeKeyFromFragment(location: Location, history: History, storage: Storage): string | null {
  const fragment = location.hash.replace(/^#/, '')
  if (fragment === '') return null
  const key = new URLSearchParams(fragment).get('key')?.trim() ?? ''
  history.replaceState(history.state, '', `${location.pathname}${location.search}`)
  if (key === '') return null
  storage.setItem(KEY_STORAGE, key)
  return key
}

/** The stored key, or null. */
export function storedKey(storage: Storage): string | null {
  const key = storage.getItem(KEY_STORAGE)
  return key === null || key === '' ? null : key
}

/** Stores a key typed into the form. */
export function storeKey(storage: Storage, key: string): void {
  storage.setItem(KEY_STORAGE, key.trim())
}

/** Forgets the key. */
export function forgetKey(storage: Storage): void {
  storage.removeItem(KEY_STORAGE)
}
