import { redirect } from '@remix-run/node'

/** SPEC §2: /faq redirects to /faq/docs. */
export const loader = () => redirect('/faq/docs')
