import { createContext, useContext } from 'react'

/**
 * True below the logged-in layout, which holds the page's one `<h1>` (issue 23): a page drawn inside it
 * (an exception page, an error boundary) starts at `<h2>`; drawn alone, it has the `<h1>` itself.
 */
export const LayoutHoldsH1 = createContext(false)

export function useTopHeadingOrder(): 1 | 2 {
  return useContext(LayoutHoldsH1) ? 2 : 1
}
