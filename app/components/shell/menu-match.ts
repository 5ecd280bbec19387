import type { MenuItem } from '#contract/menu.ts'

/** Is `pathname` the entry's page or a page below it (`/system/user-manage/12` under `/system/user-manage`)? */
export const under = (pathname: string, path: string) => pathname === path || pathname.startsWith(path.endsWith('/') ? path : `${path}/`)

/**
 * The chain of menu entries (group → … → entry) whose path covers `pathname`, deepest match wins. A
 * page below no entry of its own (`/share-manage/new`) names the entry it belongs to in its route
 * `handle.menu`, passed as `hint`.
 */
export function menuTrail(items: MenuItem[], pathname: string, hint?: string): MenuItem[] {
  const walk = (list: MenuItem[], target: string): MenuItem[] => {
    let best: MenuItem[] = []
    for (const item of list) {
      if (!under(target, item.path)) continue
      const chain = [item, ...walk(item.children ?? [], target)]
      if (chain.length > best.length || (chain.length === best.length && chain.at(-1)!.path.length > best.at(-1)!.path.length)) best = chain
    }
    return best
  }
  const trail = walk(items, pathname)
  if (hint && (!trail.length || trail.at(-1)!.children?.length)) {
    const hinted = walk(items, hint)
    if (hinted.length) return hinted
  }
  return trail
}

const allowed = (item: MenuItem, role: string) => item.roles.includes('*') || item.roles.includes(role)

/**
 * SPEC §2 permission guard for a target path: null when it may be shown, else why not — `role` (the
 * role may not open it) or `menu` (menus come from the server and it is not there).
 * A page covered by a static menu entry needs every entry of its trail to allow the role. With menus
 * from the server, a page the static menu covers must also be in the server's menu; pages outside the
 * menu (hidden static routes: exceptions, redirect, settings sub-forms) pass.
 */
export function guardTarget({ pathname, role, menu, serverMenu }: { pathname: string; role: string; menu: MenuItem[]; serverMenu: MenuItem[] | null }): 'role' | 'menu' | null {
  const trail = menuTrail(menu, pathname)
  if (!trail.length) return null
  if (!trail.every((i) => allowed(i, role))) return 'role'
  if (serverMenu && !menuTrail(serverMenu, pathname).length) return 'menu'
  return null
}
