import { createContext, type ReactNode, useContext } from 'react'

/** The logged-in user's role, provided by the app layout to everything below it. */
export const RoleContext = createContext<string | null>(null)

/**
 * SPEC §2 element-level permission check: may `role` see an element meant for `roles`? `*` means every
 * role. A missing or empty list is a programming error, so it throws instead of silently hiding.
 */
export function hasPermission(roles: readonly string[] | undefined, role: string | null): boolean {
  if (!Array.isArray(roles) || roles.length === 0) throw new Error('Permission needs a non-empty list of roles, e.g. roles={["admin"]}')
  return role !== null && (roles.includes('*') || roles.includes(role))
}

/** Renders its children only for the roles listed (SPEC §2); removes them for every other role. */
export function Permission({ roles, children }: { roles: readonly string[]; children: ReactNode }) {
  const role = useContext(RoleContext)
  return hasPermission(roles, role) ? <>{children}</> : null
}
