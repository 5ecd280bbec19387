import { useSyncExternalStore } from 'react'

const subscribe = () => () => {}

/**
 * False in the server render and while the page hydrates, true from then on — and at once in a
 * component first mounted after hydration (a drawer opened later must not render its no-JS form first).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  )
}
