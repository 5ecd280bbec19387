import { redirect } from '@remix-run/node'

/** SPEC §2: /agreement redirects to /agreement/exemptionagree. */
export const loader = () => redirect('/agreement/exemptionagree')
