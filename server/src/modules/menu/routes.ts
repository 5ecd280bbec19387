import { menuApi, menuForRole } from '#contract/menu.ts'
import { defineModule, ok } from '../../http/module.ts'

/** POST /api/user/menu — the menu tree the caller's role may see (DESIGN §3 Menu). */
export default defineModule({
  name: 'menu',
  routes(r) {
    r.route(menuApi.menu, async (request) => ok(menuForRole(request.user.role)))
  },
})
