import { useRouteLoaderData } from '@remix-run/react'
import type { User } from '#contract/users.ts'

/** The logged-in user, from the `_app` layout's loader. */
export function useAppUser(): User {
  const data = useRouteLoaderData<{ user: User }>('routes/_app')
  if (!data) throw new Error('useAppUser outside the logged-in layout')
  return data.user
}
