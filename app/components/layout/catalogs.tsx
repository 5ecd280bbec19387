import { useBlocker } from '@remix-run/react'
import { createContext, useContext, useEffect } from 'react'

/**
 * The texts a page needs before it hydrates (issue 11 JS budget, decision 100). On the server,
 * entry.server notes the key of every `t()` call of the render; `<CatalogList>`, placed after the page
 * in the document, writes those entries of the page's catalog (with their plural and context forms) as
 * JSON into the page. entry.client starts i18next with them plus the namespaces every page needs
 * (`ALWAYS`), hydrates, and then fetches the whole catalogs (`CatalogGate`). On the client the
 * component renders what the server wrote.
 */
export type CatalogRecording = { keys: Set<string>; entries: (keys: Set<string>) => Record<string, unknown> }
export const CatalogRecorder = createContext<CatalogRecording | null>(null)

const LIST_ID = 'ps-catalogs'

/** The entries the server wrote into this page; null when it wrote none (then everything is loaded first). */
export function readCatalogEntries(): Record<string, unknown> | null {
  const text = typeof document === 'undefined' ? null : document.getElementById(LIST_ID)?.textContent
  try {
    const entries = text ? (JSON.parse(text) as unknown) : null
    return entries && typeof entries === 'object' && !Array.isArray(entries) ? (entries as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** JSON safe inside <script>: no `</script>` or `<!--` can close or change it. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c')

let written: string | null = null

export function CatalogList() {
  const recorder = useContext(CatalogRecorder)
  // Read once in the browser, before hydration, so the hydrated element is the server's.
  if (!recorder && written === null && typeof document !== 'undefined') written = document.getElementById(LIST_ID)?.textContent ?? '{}'
  const json = recorder ? scriptJson(recorder.entries(recorder.keys)) : (written ?? '{}')
  return <script type="application/json" id={LIST_ID} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: json }} />
}

let follow: (() => Promise<unknown>) | null = null
let pending: Promise<unknown> | null = null
let complete = false

/** entry.client: how to fetch the other catalogs, once the page has hydrated (`CatalogGate`). */
export function catalogsFollowing(load: () => Promise<unknown>) {
  follow = load
}

/**
 * Fetches the other catalogs once the page has hydrated (not while it hydrates: they would compete
 * with it), and holds a navigation (a link or a form) until they are here.
 */
export function CatalogGate() {
  const blocker = useBlocker(() => !complete && follow !== null)
  useEffect(() => {
    if (!follow || pending) return
    const load = follow
    // After this commit's other effects (the page marks itself hydrated in one): the page comes first.
    pending = new Promise((resolve) => setTimeout(resolve, 0))
      .then(load)
      .then(
        () => (complete = true),
        () => (complete = true), // offline: a navigation must not wait for ever; missing keys show as keys
      )
  }, [])
  useEffect(() => {
    if (blocker.state === 'blocked') pending?.then(() => blocker.proceed())
  }, [blocker])
  return null
}
