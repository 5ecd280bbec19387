import { menuApi, menuForRole } from '#contract/menu.ts'
import type { User } from '#contract/users.ts'
import { api } from './api.ts'
import { unreadCounts } from './messages.ts'
import { getSettings } from './settings.ts'

/**
 * The menu of the logged-in layout: the role's static one, or `POST /api/user/menu` with the
 * menuFromServer setting (SPEC §2); a failure keeps the static menu and says so (SPEC §4).
 */
export async function layoutMenu(request: Request, user: User, token: string) {
  const settings = await getSettings(request)
  if (!settings.menuFromServer) return { menu: menuForRole(user.role), menuFailed: false, serverMenu: false }
  try {
    return { menu: await api(request, menuApi.menu, { token }), menuFailed: false, serverMenu: true }
  } catch {
    return { menu: menuForRole(user.role), menuFailed: true, serverMenu: false }
  }
}

/** What the layout needs around a page that is not below `_app` (the 404 of an unmatched URL). */
export async function layoutData(request: Request, user: User, token: string) {
  const { menu, menuFailed } = await layoutMenu(request, user, token)
  return { user, menu, menuFailed, tabs: [] as string[], unread: await unreadCounts(request, token) }
}
