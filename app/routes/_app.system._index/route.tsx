import { redirect } from '@remix-run/node'

export const loader = () => redirect('/system/user-manage')
