import { describe, expect, it } from 'vitest'
import { forgotFormSchema, registerFormSchema, updateAlipaySchema, updateProfileSchema } from './auth.ts'
import { MENU, menuForRole } from './menu.ts'
import { fenToYuan, formatYuan, yuanToFen } from './money.ts'
import {
  EMAIL_PATTERN,
  PHONE_PATTERN,
  PROFILE_MAX,
  emailOrPhoneSchema,
  emailSchema,
  identifyEmailOrPhone,
  isEmail,
  isPhone,
  isStrongPassword,
  isWithinLast24Hours,
  passwordSchema,
  phoneSchema,
  profileSchema,
} from './rules.ts'
import type { MenuItem } from './menu.ts'

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message) ?? []
/** The message the console shows: the first one. */
const first = (r: Parameters<typeof messages>[0]) => messages(r)[0]

describe('SPEC §5 phone: 11 digits, 1 then 3–9', () => {
  it.each(['13800138000', '13000000000', '19999999999', '15912345678', '17012345678'])('accepts %s', (v) => {
    expect(isPhone(v)).toBe(true)
    expect(PHONE_PATTERN.test(v)).toBe(true)
  })
  it.each([
    ['second digit 2', '12800138000'],
    ['second digit 0', '10800138000'],
    ['second digit 1', '11800138000'],
    ['10 digits', '1380013800'],
    ['12 digits', '138001380000'],
    ['not starting with 1', '23800138000'],
    ['country code', '+8613800138000'],
    ['letter inside', '1380013800a'],
    ['dashes', '138-0013-8000'],
    ['inner space', '138 00138000'],
    ['empty', ''],
  ])('rejects %s', (_why, v) => {
    expect(isPhone(v)).toBe(false)
  })
  it('the schema trims, and says which rule failed', () => {
    expect(phoneSchema.parse(' 13800138000 ')).toBe('13800138000')
    expect(first(phoneSchema.safeParse(''))).toBe('validation.phoneRequired')
    expect(messages(phoneSchema.safeParse('12345'))).toEqual(['validation.phoneFormat'])
  })
})

describe('SPEC §5 email: [letters digits . _ -]@domain.TLD(2–6 letters)', () => {
  it.each(['a@b.cc', 'first.last@example.com', 'under_score-dash@mail.example.org', 'UPPER@EXAMPLE.COM', 'x@y.museum', 'x@sub.y.io', '123@qq.com'])(
    'accepts %s',
    (v) => {
      expect(isEmail(v)).toBe(true)
      expect(emailSchema.safeParse(v).success).toBe(true)
    },
  )
  it.each([
    ['one-letter TLD', 'x@y.c'],
    ['seven-letter TLD', 'x@y.abcdefg'],
    ['digit TLD', 'x@y.123'],
    ['no TLD', 'x@localhost'],
    ['no @', 'x.example.com'],
    ['two @', 'x@y@z.com'],
    ['plus sign', 'a+b@example.com'],
    ['space', 'a b@example.com'],
    ['empty local part', '@example.com'],
    ['empty label', 'x@.com'],
    ['trailing dot', 'x@example.com.'],
    ['html', '<script>@x.com'],
    ['sql', "' OR 1=1 --@x.com"],
  ])('rejects %s', (_why, v) => {
    expect(EMAIL_PATTERN.test(v)).toBe(false)
    expect(isEmail(v)).toBe(false)
  })
  it('caps the length at 254', () => {
    const long = `${'a'.repeat(250)}@b.cc`
    expect(EMAIL_PATTERN.test(long)).toBe(true)
    expect(isEmail(long)).toBe(false)
    expect(messages(emailSchema.safeParse(long))).toContain('validation.emailFormat')
  })
  it('the schema trims and names the failure', () => {
    expect(emailSchema.parse('  a@b.cc ')).toBe('a@b.cc')
    expect(first(emailSchema.safeParse(''))).toBe('validation.emailRequired')
    expect(messages(emailSchema.safeParse('nope'))).toEqual(['validation.emailFormat'])
  })
})

describe('SPEC §5 password: ≥ 6, digits, upper, lower, special, no spaces', () => {
  it.each(['Abc@12', 'aB3$xy', 'Pass-word9', 'Demo@2026', `A1!${'a'.repeat(61)}`])('accepts %s', (v) => {
    expect(isStrongPassword(v)).toBe(true)
    expect(passwordSchema.safeParse(v).success).toBe(true)
  })
  it.each([
    ['five characters', 'Ab@12'],
    ['no digit', 'Abc@de'],
    ['no upper case', 'abc@12'],
    ['no lower case', 'ABC@12'],
    ['no special character', 'Abc123'],
    ['a space', 'Ab c@12'],
    ['a leading space', ' Abc@12'],
    ['a tab', 'Abc@12\t'],
    ['a newline', 'Abc@1\n2'],
    ['over 64 characters', `A1!${'a'.repeat(62)}`],
  ])('rejects %s', (_why, v) => {
    expect(isStrongPassword(v)).toBe(false)
    expect(passwordSchema.safeParse(v).success).toBe(false)
  })
  it('does not trim (a space is part of the password)', () => {
    expect(passwordSchema.safeParse(' Abc@12 ').success).toBe(false)
  })
  it('names the failure', () => {
    expect(first(passwordSchema.safeParse(''))).toBe('validation.passwordRequired')
    expect(messages(passwordSchema.safeParse('abcdef'))).toEqual(['validation.passwordRule'])
    expect(messages(passwordSchema.safeParse(undefined))).toEqual(['validation.passwordRequired'])
  })
})

describe('SPEC §5 profile: at most 200 characters', () => {
  it('accepts 200 and rejects 201', () => {
    expect(PROFILE_MAX).toBe(200)
    expect(profileSchema.safeParse('字'.repeat(200)).success).toBe(true)
    expect(messages(profileSchema.safeParse('字'.repeat(201)))).toEqual(['validation.profileMax'])
  })
  it('settings need a user name; the profile may be empty', () => {
    expect(updateProfileSchema.parse({ user_name: 'alice' })).toEqual({ user_name: 'alice', profile: '' })
    expect(first(updateProfileSchema.safeParse({ user_name: '', profile: 'x' }))).toBe('validation.usernameRequired')
    expect(updateProfileSchema.safeParse({ user_name: 'alice', profile: 'x'.repeat(201) }).success).toBe(false)
  })
})

describe('SPEC §5 register / forgot-password identification', () => {
  it('a phone is a phone', () => {
    expect(identifyEmailOrPhone('13800138000')).toEqual({ kind: 'phone', phone: '13800138000' })
  })
  it('an email is an email, even when its local part is a phone number', () => {
    expect(identifyEmailOrPhone('13800138000@qq.com')).toEqual({ kind: 'email', email: '13800138000@qq.com' })
    expect(identifyEmailOrPhone('a@b.cc')).toEqual({ kind: 'email', email: 'a@b.cc' })
  })
  it('trims before identifying', () => {
    expect(identifyEmailOrPhone('  13800138000 ')).toEqual({ kind: 'phone', phone: '13800138000' })
    expect(identifyEmailOrPhone(' a@b.cc\t')).toEqual({ kind: 'email', email: 'a@b.cc' })
  })
  it.each(['', 'alice', '12800138000', '1380013800', 'a@b', 'a@b.c', "' OR 1=1 --", '<script>alert(1)</script>'])('%j is invalid', (v) => {
    expect(identifyEmailOrPhone(v)).toEqual({ kind: 'invalid' })
    expect(messages(emailOrPhoneSchema.safeParse(v))).toContain('validation.emailOrPhone')
  })
  const base = { user_name: 'alice', verificationCode: '123456', password: 'Abc@12', confirmPassword: 'Abc@12' }
  it('the sign-up form accepts either, and needs the terms and a matching confirmation', () => {
    expect(registerFormSchema.safeParse({ ...base, email_phone: '13800138000', agree: 'on' }).success).toBe(true)
    expect(registerFormSchema.safeParse({ ...base, email_phone: 'a@b.cc', agree: 'on' }).success).toBe(true)
    expect(messages(registerFormSchema.safeParse({ ...base, email_phone: 'nope', agree: 'on' }))).toEqual(['validation.emailOrPhone'])
    expect(messages(registerFormSchema.safeParse({ ...base, email_phone: 'a@b.cc' }))).toEqual(['validation.agreeRequired'])
    expect(messages(registerFormSchema.safeParse({ ...base, email_phone: 'a@b.cc', agree: 'on', confirmPassword: 'Abc@13' }))).toEqual([
      'validation.confirmMismatch',
    ])
  })
  it('the forgot-password form uses the same identification', () => {
    const { user_name: _, ...forgot } = base
    expect(forgotFormSchema.safeParse({ ...forgot, email_phone: '13800138000' }).success).toBe(true)
    expect(messages(forgotFormSchema.safeParse({ ...forgot, email_phone: 'x' }))).toEqual(['validation.emailOrPhone'])
  })
  it('an Alipay account is a phone or an email', () => {
    expect(updateAlipaySchema.safeParse({ alipayRealName: '张三', alipayAccount: '13800138000' }).success).toBe(true)
    expect(updateAlipaySchema.safeParse({ alipayRealName: '张三', alipayAccount: 'a@b.cc' }).success).toBe(true)
    expect(messages(updateAlipaySchema.safeParse({ alipayRealName: '张三', alipayAccount: 'alice' }))).toEqual(['validation.alipayAccountFormat'])
  })
})

describe('SPEC §5 recency check: within the last 24 hours', () => {
  const now = new Date('2026-03-01T12:00:00Z')
  const ago = (ms: number) => new Date(now.getTime() - ms)
  const H = 3600 * 1000
  it('is true from now back to just under 24 hours', () => {
    expect(isWithinLast24Hours(now, now)).toBe(true)
    expect(isWithinLast24Hours(ago(H), now)).toBe(true)
    expect(isWithinLast24Hours(ago(24 * H - 1), now)).toBe(true)
  })
  it('is false at and beyond 24 hours, and for future times', () => {
    expect(isWithinLast24Hours(ago(24 * H), now)).toBe(false)
    expect(isWithinLast24Hours(ago(25 * H), now)).toBe(false)
    expect(isWithinLast24Hours(new Date(now.getTime() + 1000), now)).toBe(false)
  })
  it('accepts ISO strings and epoch milliseconds, and rejects garbage', () => {
    expect(isWithinLast24Hours(ago(H).toISOString(), now)).toBe(true)
    expect(isWithinLast24Hours(ago(H).getTime(), now)).toBe(true)
    expect(isWithinLast24Hours('not a date', now)).toBe(false)
    expect(isWithinLast24Hours(Number.NaN, now)).toBe(false)
  })
  it('defaults to the current time', () => {
    expect(isWithinLast24Hours(new Date(Date.now() - 1000))).toBe(true)
    expect(isWithinLast24Hours(new Date(Date.now() - 25 * H))).toBe(false)
  })
})

describe('money: yuan on the wire, integer fen inside (DESIGN §2)', () => {
  it.each([
    [9.9, 990],
    ['9.90', 990],
    [0, 0],
    ['0.01', 1],
    [12.34, 1234],
    [0.1 + 0.2, 30],
    [' 100 ', 10000],
    ['01.50', 150],
    [1e9, 1e11],
  ] as const)('yuanToFen(%j) = %d', (yuan, fen) => {
    expect(yuanToFen(yuan)).toBe(fen)
  })
  it.each([
    ['three decimals', 1.234],
    ['three decimals (text)', '1.234'],
    ['1.005', 1.005],
    ['negative', -1],
    ['negative text', '-1'],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['empty', ''],
    ['letters', 'abc'],
    ['exponent', '1e3'],
    ['comma', '1,5'],
    ['bare dot', '1.'],
    ['too large', '99999999999999999999'],
    ['a seventh decimal', 1.0000001],
  ])('yuanToFen rejects %s', (_why, v) => {
    expect(() => yuanToFen(v as number | string)).toThrow(RangeError)
  })
  it('fenToYuan and back are exact for every amount up to ¥100', () => {
    for (let fen = 0; fen <= 10000; fen++) expect(yuanToFen(fenToYuan(fen))).toBe(fen)
    expect(fenToYuan(990)).toBe(9.9)
    expect(fenToYuan(1)).toBe(0.01)
    expect(fenToYuan(-150)).toBe(-1.5)
  })
  it('formatYuan always shows two decimals', () => {
    expect(formatYuan(1230)).toBe('¥12.30')
    expect(formatYuan(5)).toBe('¥0.05')
    expect(formatYuan(0)).toBe('¥0.00')
    expect(formatYuan(100000)).toBe('¥1000.00')
    expect(formatYuan(-150)).toBe('-¥1.50')
  })
  it('fenToYuan and formatYuan reject NaN and infinities instead of passing them on', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => fenToYuan(bad)).toThrow(RangeError)
      expect(() => formatYuan(bad)).toThrow(RangeError)
    }
  })
})

describe('menuForRole (SPEC §2 order values, role filtering)', () => {
  const item = (name: string, order: number, roles: string[] = ['*'], children?: MenuItem[]): MenuItem => ({
    path: `/${name}`,
    name,
    order,
    roles,
    ...(children ? { children } : {}),
  })
  // SPEC §2: dashboard 0, share 2, system 2, subscription 3, exception 6, user 7, customer service 8,
  // visualization 8, faq 9 — given here shuffled.
  const spec = [
    item('faq', 9),
    item('user', 7),
    item('system', 2, ['admin']),
    item('customer-service', 8),
    item('dashboard', 0),
    item('visualization', 8),
    item('exception', 6, ['admin', 'user']),
    item('share', 2),
    item('subscription', 3),
  ]
  it('sorts by order, keeping the given order for equal values', () => {
    expect(menuForRole('admin', spec).map((i) => i.name)).toEqual([
      'dashboard',
      'system',
      'share',
      'subscription',
      'exception',
      'user',
      'customer-service',
      'visualization',
      'faq',
    ])
  })
  it('drops what the role may not see; * is every role', () => {
    expect(menuForRole('user', spec).map((i) => i.name)).toEqual([
      'dashboard',
      'share',
      'subscription',
      'exception',
      'user',
      'customer-service',
      'visualization',
      'faq',
    ])
    expect(menuForRole('guest', spec).map((i) => i.name)).not.toContain('exception')
    expect(menuForRole('guest', spec).map((i) => i.name)).toContain('faq')
  })
  it('filters and sorts children too, without touching the input', () => {
    const tree = [item('dash', 0, ['*'], [item('b', 2), item('secret', 1, ['admin']), item('a', 0)])]
    const copy = structuredClone(tree)
    expect(menuForRole('user', tree)[0]!.children!.map((c) => c.name)).toEqual(['a', 'b'])
    expect(menuForRole('admin', tree)[0]!.children!.map((c) => c.name)).toEqual(['a', 'secret', 'b'])
    expect(tree).toEqual(copy)
  })
  it('the product menu uses the SPEC §2 order values and keeps /system for admins', () => {
    // SPEC §2 order values, by the top-level path each section lives under.
    const specOrder: Record<string, number> = {
      '/dashboard': 0,
      '/share-manage': 2,
      '/system': 2,
      '/subscription-manage': 3,
      '/exception': 6,
      '/user': 7,
      '/visualization': 8,
      '/faq': 9,
    }
    for (const top of MENU) if (top.path in specOrder) expect(top.order, top.path).toBe(specOrder[top.path])
    expect(MENU.map((i) => i.path)).toEqual(expect.arrayContaining(['/dashboard', '/system', '/user', '/faq']))
    const all = (items: MenuItem[]): string[] => items.flatMap((i) => [i.path, ...all(i.children ?? [])])
    for (const role of ['admin', 'user']) {
      const menu = menuForRole(role)
      const orders = menu.map((i) => i.order)
      expect(orders).toEqual([...orders].sort((x, y) => x - y))
      expect(menu[0]!.path).toBe('/dashboard')
      expect(menu.at(-1)!.path).toBe('/faq')
    }
    expect(all(menuForRole('admin'))).toContain('/system/user-manage')
    expect(all(menuForRole('user')).some((p) => p.startsWith('/system'))).toBe(false)
  })

})
