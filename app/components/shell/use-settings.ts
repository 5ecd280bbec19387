import { useRouteLoaderData } from '@remix-run/react'
import type { loader as rootLoader } from '#app/root.tsx'
import { type AppSettings, normalizeSettings } from '#app/settings.ts'

/** The settings of the cookie, as the root rendered them. */
export function useStoredSettings(): AppSettings {
  return useRouteLoaderData<typeof rootLoader>('root')?.settings ?? normalizeSettings(null)
}
