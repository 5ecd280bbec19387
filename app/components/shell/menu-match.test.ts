import { describe, expect, it } from 'vitest'
import { MENU, menuForRole } from '#contract/menu.ts'
import { guardTarget, menuTrail } from './menu-match.ts'

const names = (path: string, hint?: string) => menuTrail(MENU, path, hint).map((i) => i.name)

describe('menu trail', () => {
  it('finds the entry of a page and of pages below it', () => {
    expect(names('/system/user-manage')).toEqual(['menu.system', 'menu.userManage'])
    expect(names('/share-manage/search-table')).toEqual(['menu.shareManage', 'menu.myShares'])
    expect(names('/visualization')).toEqual(['menu.visualization'])
    expect(names('/exception/404')).toEqual([])
    // a prefix of a segment is not a match
    expect(names('/faqx')).toEqual([])
  })

  it('uses the route hint for nested pages that only the group covers', () => {
    expect(names('/share-manage/new')).toEqual(['menu.shareManage'])
    expect(names('/share-manage/new', '/share-manage/search-table')).toEqual(['menu.shareManage', 'menu.myShares'])
    expect(names('/share-manage/edit/12', '/share-manage/search-table').at(-1)).toBe('menu.myShares')
  })
})

describe('permission guard (SPEC §2)', () => {
  const base = { menu: MENU }
  it('lets a role in, and sends other roles to the fallback', () => {
    expect(guardTarget({ ...base, pathname: '/system/user-manage', role: 'admin', serverMenu: null })).toBeNull()
    expect(guardTarget({ ...base, pathname: '/system/user-manage', role: 'user', serverMenu: null })).toBe('role')
    expect(guardTarget({ ...base, pathname: '/dashboard/workplace', role: 'user', serverMenu: null })).toBeNull()
  })

  it('with a server menu, needs the target in it or outside the static menu', () => {
    const serverMenu = menuForRole('admin').filter((i) => i.path !== '/visualization')
    expect(guardTarget({ ...base, pathname: '/visualization', role: 'admin', serverMenu })).toBe('menu')
    expect(guardTarget({ ...base, pathname: '/system/outbox', role: 'admin', serverMenu })).toBeNull()
    expect(guardTarget({ ...base, pathname: '/exception/500', role: 'admin', serverMenu: [] })).toBeNull()
  })
})
