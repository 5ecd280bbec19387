import { Anchor, Button, Stack, Text } from '@mantine/core'
import { Form, Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { User } from '#contract/users.ts'
import { FormErrors, useIsPending } from '#app/components/forms/fields.tsx'
import { formatDateTime } from '#app/utils/format.ts'
import { settingsAction } from '../_app.user.setting/section-form.ts'

/** The sharing disclaimer: agreed once (the API keeps the first time). */
export function TermsForm({ user, error }: { user: User; error?: string }) {
  const { t } = useTranslation()
  const action = settingsAction('terms')
  const pending = useIsPending({ formAction: action })
  return (
    <Stack>
      <Text size="sm">
        {t('settings.termsText')}{' '}
        <Anchor component={Link} to="/agreement/exemptionagree">
          {t('pages.agreement.exemption')}
        </Anchor>
      </Text>
      {user.terms_agreed_at ? (
        <Text size="sm" c="green">
          {t('settings.termsAgreedAt', { at: formatDateTime(user.terms_agreed_at) })}
        </Text>
      ) : (
        <Form method="post" action={action}>
          <Stack>
            <FormErrors errors={error ? [error] : undefined} />
            <Button type="submit" loading={pending}>
              {t('settings.agreeTerms')}
            </Button>
          </Stack>
        </Form>
      )}
    </Stack>
  )
}
