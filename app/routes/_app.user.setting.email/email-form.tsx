import { emailCodeSchema, updateEmailSchema } from '#contract/auth.ts'
import type { User } from '#contract/users.ts'
import { BindForm } from '../_app.user.setting/bind-form.tsx'
import { type SectionResult, useSectionForm } from '../_app.user.setting/section-form.ts'

/** The account email, bound with a code sent to it. */
export function EmailForm({ user, last }: { user: User; last?: SectionResult }) {
  const [form, fields] = useSectionForm('email-form', updateEmailSchema, last?.result, { codeSchema: emailCodeSchema })
  return <BindForm kind="email" current={user.email} form={form} target={fields.email} code={fields.verificationCode} operator={user.role === 'admin'} last={last} />
}
