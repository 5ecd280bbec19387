import type SettingsDrawer from './settings-drawer.tsx'

type Drawer = typeof SettingsDrawer

/**
 * The settings drawer's module (its form, inputs and colour swatches), fetched on first use rather than
 * with every page. Once loaded it is rendered directly, never through `React.lazy`: a lazy component
 * that the server rendered suspends while the page hydrates, and an update reaching it then breaks the
 * hydration (React errors 421 and 345). So the server loads it at start-up and the browser, when the
 * page it hydrates has the drawer open (`?settings`), before hydrating (entry.client.tsx).
 */
let loaded: Drawer | null = null
let loading: Promise<Drawer> | null = null

export function loadDrawer(): Promise<Drawer> {
  return (loading ??= import('./settings-drawer.tsx').then((m) => (loaded = m.default)))
}

export function loadedDrawer(): Drawer | null {
  return loaded
}

if (typeof document === 'undefined') void loadDrawer()
