import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { hasPermission, Permission, RoleContext } from './permission.tsx'

const render = (role: string | null, roles: string[]) =>
  renderToStaticMarkup(
    <RoleContext.Provider value={role}>
      <p>before</p>
      <Permission roles={roles}>
        <button>delete</button>
      </Permission>
    </RoleContext.Provider>,
  )

describe('Permission (SPEC §2 element-level check)', () => {
  it('keeps the element for a listed role and for *', () => {
    expect(render('admin', ['admin'])).toContain('<button>delete</button>')
    expect(render('user', ['*'])).toContain('<button>delete</button>')
    expect(render('user', ['user', 'admin'])).toContain('<button>delete</button>')
  })

  it('removes the element for other roles and when no one is logged in', () => {
    expect(render('user', ['admin'])).toBe('<p>before</p>')
    expect(render(null, ['admin'])).toBe('<p>before</p>')
    expect(render(null, ['*'])).toBe('<p>before</p>')
  })

  it('throws without a role list', () => {
    expect(() => render('admin', [])).toThrow(/non-empty list of roles/)
    expect(() => hasPermission(undefined, 'admin')).toThrow(/non-empty list of roles/)
  })
})
