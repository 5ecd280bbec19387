import { phoneCodeSchema, updatePhoneSchema } from '#contract/auth.ts'
import type { User } from '#contract/users.ts'
import { BindForm } from '../_app.user.setting/bind-form.tsx'
import { type SectionResult, useSectionForm } from '../_app.user.setting/section-form.ts'

/** The security phone (DESIGN §3: needed to publish shares), bound with a code sent to it. */
export function PhoneForm({ user, last }: { user: User; last?: SectionResult }) {
  const [form, fields] = useSectionForm('phone-form', updatePhoneSchema, last?.result, { codeSchema: phoneCodeSchema })
  return <BindForm kind="phone" current={user.phone} form={form} target={fields.phone} code={fields.verificationCode} operator={user.role === 'admin'} last={last} />
}
