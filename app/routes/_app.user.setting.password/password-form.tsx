import { getFormProps } from '@conform-to/react'
import { Button, Group, Stack } from '@mantine/core'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { updatePasswordFormSchema } from '#contract/auth.ts'
import { FormErrors, PasswordField, useIsPending } from '#app/components/forms/fields.tsx'
import { type SectionResult, settingsAction, useSectionForm } from '../_app.user.setting/section-form.ts'

export function PasswordForm({ last }: { last?: SectionResult }) {
  const { t } = useTranslation()
  const action = settingsAction('password')
  const pending = useIsPending({ formAction: action })
  const [form, fields] = useSectionForm('password-form', updatePasswordFormSchema, last?.result)
  return (
    <Form method="post" action={action} {...getFormProps(form)}>
      <Stack>
        <PasswordField meta={fields.oldPassword} label={t('settings.oldPassword')} autoComplete="current-password" />
        <PasswordField meta={fields.newPassword} label={t('auth.newPassword')} description={t('validation.passwordRule')} autoComplete="new-password" />
        <PasswordField meta={fields.confirmPassword} label={t('auth.confirmPassword')} autoComplete="new-password" />
        <FormErrors errors={form.errors} id={form.errorId} />
        <Group>
          <Button type="submit" loading={pending}>
            {t('settings.changePassword')}
          </Button>
        </Group>
      </Stack>
    </Form>
  )
}
