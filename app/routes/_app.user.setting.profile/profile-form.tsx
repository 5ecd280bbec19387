import { getFormProps } from '@conform-to/react'
import { Button, Group, Stack } from '@mantine/core'
import { Form } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { updateProfileSchema } from '#contract/auth.ts'
import type { User } from '#contract/users.ts'
import { FormErrors, TextareaField, TextField, useIsPending } from '#app/components/forms/fields.tsx'
import { type SectionResult, settingsAction, useSectionForm } from '../_app.user.setting/section-form.ts'

export function ProfileForm({ user, last }: { user: User; last?: SectionResult }) {
  const { t } = useTranslation()
  const action = settingsAction('profile')
  const pending = useIsPending({ formAction: action })
  const [form, fields] = useSectionForm('profile-form', updateProfileSchema, last?.result, { defaultValue: { user_name: user.user_name, profile: user.profile } })
  return (
    <Form method="post" action={action} {...getFormProps(form)}>
      <Stack>
        <TextField meta={fields.user_name} label={t('settings.userName')} />
        <TextareaField meta={fields.profile} label={t('settings.profile')} description={t('settings.profileHint')} autosize minRows={3} />
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
