import { createContext, useContext } from 'react'

/** The per-response CSP nonce, set by entry.server and read by the root's scripts. */
const NonceContext = createContext<string>('')
export const NonceProvider = NonceContext.Provider
export const useNonce = () => useContext(NonceContext)
