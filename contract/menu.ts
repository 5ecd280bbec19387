import { z } from 'zod'
import { endpoint } from './http.ts'

export type MenuItem = { path: string; name: string; order: number; roles: string[]; children?: MenuItem[] }

/** Recursive, so named: the OpenAPI document refers to it as `#/components/schemas/MenuItem`. */
export const menuItemSchema = z
  .object({
    path: z.string(),
    name: z.string(),
    order: z.number(),
    roles: z.array(z.string()),
    get children() {
      return z.array(menuItemSchema).optional()
    },
  })
  .meta({ id: 'MenuItem' })

/**
 * The console menu (SPEC §2), one tree for the static routes and `POST /api/user/menu`. Order values
 * are SPEC §2's. `roles: ['*']` means every logged-in role. Only pages that exist are listed; each
 * capability adds its own entries.
 */
export const MENU: MenuItem[] = [
  {
    path: '/dashboard',
    name: 'menu.dashboard',
    order: 0,
    roles: ['*'],
    children: [
      { path: '/dashboard/workplace', name: 'menu.workplace', order: 0, roles: ['*'] },
      { path: '/dashboard/makemoney', name: 'menu.makemoney', order: 1, roles: ['*'] },
      { path: '/dashboard/withdrawal', name: 'menu.withdrawal', order: 2, roles: ['*'] },
      { path: '/dashboard/instrument-cluster', name: 'menu.instrumentCluster', order: 3, roles: ['admin'] },
    ],
  },
  {
    path: '/share-manage',
    name: 'menu.shareManage',
    order: 2,
    roles: ['*'],
    children: [
      { path: '/share-manage/search-table', name: 'menu.myShares', order: 0, roles: ['*'] },
      { path: '/share-manage/order-list', name: 'menu.incomeOrders', order: 1, roles: ['*'] },
    ],
  },
  {
    path: '/system',
    name: 'menu.system',
    order: 2,
    roles: ['admin'],
    children: [
      { path: '/system/user-manage', name: 'menu.userManage', order: 0, roles: ['admin'] },
      { path: '/system/login-record', name: 'menu.loginRecord', order: 1, roles: ['admin'] },
      { path: '/system/share-manage', name: 'menu.adminShares', order: 2, roles: ['admin'] },
      { path: '/system/order-manage', name: 'menu.adminOrders', order: 3, roles: ['admin'] },
      { path: '/system/report-manage', name: 'menu.reportManage', order: 4, roles: ['admin'] },
      { path: '/system/appeal-manage', name: 'menu.appealManage', order: 5, roles: ['admin'] },
      { path: '/system/channel-manage', name: 'menu.channelManage', order: 6, roles: ['admin'] },
      { path: '/system/message-manage', name: 'menu.messageManage', order: 7, roles: ['admin'] },
      { path: '/system/withdrawal-manage', name: 'menu.withdrawalManage', order: 8, roles: ['admin'] },
      { path: '/system/package-list', name: 'menu.packageManage', order: 9, roles: ['admin'] },
      { path: '/system/subscription-manage', name: 'menu.subscriptionManage', order: 10, roles: ['admin'] },
      { path: '/system/notification-list', name: 'menu.notificationList', order: 11, roles: ['admin'] },
      { path: '/system/statistics-report', name: 'menu.statisticsReport', order: 12, roles: ['admin'] },
      { path: '/system/dead-links', name: 'menu.deadLinks', order: 13, roles: ['admin'] },
      { path: '/system/outbox', name: 'menu.outbox', order: 90, roles: ['admin'] },
    ],
  },
  {
    path: '/subscription-manage',
    name: 'menu.subscription',
    order: 3,
    roles: ['*'],
    children: [
      { path: '/subscription-manage/subscription-list', name: 'menu.mySubscriptions', order: 0, roles: ['*'] },
      { path: '/subscription-manage/package-list', name: 'menu.packages', order: 1, roles: ['*'] },
    ],
  },
  {
    path: '/user',
    name: 'menu.user',
    order: 7,
    roles: ['*'],
    children: [
      { path: '/user/setting', name: 'menu.setting', order: 0, roles: ['*'] },
      { path: '/user/order-list', name: 'menu.myOrders', order: 1, roles: ['*'] },
      { path: '/user/my-message', name: 'menu.myMessage', order: 2, roles: ['*'] },
    ],
  },
  // The external online customer service (SPEC §2): /support redirects to the console's SUPPORT_URL.
  { path: '/support', name: 'menu.customerService', order: 8, roles: ['*'] },
  { path: '/visualization', name: 'menu.visualization', order: 8, roles: ['*'] },
  { path: '/faq', name: 'menu.faq', order: 9, roles: ['*'] },
]

const allowed = (item: MenuItem, role: string) => item.roles.includes('*') || item.roles.includes(role)

/** The menu a role may see, sorted by order (stable for equal values). */
export function menuForRole(role: string, items: MenuItem[] = MENU): MenuItem[] {
  return items
    .filter((i) => allowed(i, role))
    .map((i) => (i.children ? { ...i, children: menuForRole(role, i.children) } : i))
    .sort((a, b) => a.order - b.order)
}

export const menuApi = {
  /** DESIGN §3 Menu: the tree the caller's role may see. */
  menu: endpoint({ method: 'POST', path: '/api/user/menu', access: 'user', tag: 'users', summary: "The caller's menu tree", response: z.array(menuItemSchema) }),
}
