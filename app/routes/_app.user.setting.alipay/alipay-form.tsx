import { getFormProps } from '@conform-to/react'
import { Button, Group, Stack } from '@mantine/core'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { updateAlipaySchema } from '#contract/auth.ts'
import type { User } from '#contract/users.ts'
import { FormErrors, TextField, useIsPending } from '#app/components/forms/fields.tsx'
import { type SectionResult, settingsAction, useSectionForm } from '../_app.user.setting/section-form.ts'

/** Where withdrawals are paid (DESIGN §3). */
export function AlipayForm({ user, last }: { user: User; last?: SectionResult }) {
  const { t } = useTranslation()
  const action = settingsAction('alipay')
  const pending = useIsPending({ formAction: action })
  const [form, fields] = useSectionForm('alipay-form', updateAlipaySchema, last?.result, {
    defaultValue: { alipayRealName: user.alipayRealName ?? '', alipayAccount: user.alipayAccount ?? '' },
  })
  return (
    <Form method="post" action={action} {...getFormProps(form)}>
      <Stack>
        <TextField meta={fields.alipayRealName} label={t('settings.alipayRealName')} />
        <TextField meta={fields.alipayAccount} label={t('settings.alipayAccount')} description={t('settings.alipayAccountHint')} />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <Button type="submit" loading={pending}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Form>
  )
}
