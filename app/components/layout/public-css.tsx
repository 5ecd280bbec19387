import { createContext, useContext } from 'react'

/**
 * The visitor pages' stylesheet (app/public.css) as text, given by entry.server: those pages (no client
 * JavaScript) carry it in a `<style>` of their own, so the share page arrives in one round trip (issue 24,
 * decision 142). The client bundle never holds the text — a hydrated page renders no visitor-page head.
 */
const PublicCssContext = createContext<string | null>(null)
export const PublicCssProvider = PublicCssContext.Provider
export const usePublicCss = () => useContext(PublicCssContext)
