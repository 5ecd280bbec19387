import { Anchor, Text } from '@mantine/core'
import type { FieldMetadata } from '@conform-to/react'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { CheckboxField } from '#app/components/forms/fields.tsx'

/** "I agree to the user agreement and the privacy policy", each opening in a new tab: every form that makes an account. */
export function AgreeToTermsField({ meta }: { meta: FieldMetadata<string | boolean | undefined | null> }) {
  const { t } = useTranslation()
  return (
    <CheckboxField
      meta={meta}
      label={
        <Text size="sm" span>
          {t('auth.agreePrefix')}{' '}
          <Anchor component={Link} to="/agreement/user-agreement" target="_blank">
            {t('pages.agreement.userAgreement')}
          </Anchor>{' '}
          {t('auth.and')}{' '}
          <Anchor component={Link} to="/agreement/user-privacy" target="_blank">
            {t('pages.agreement.privacy')}
          </Anchor>
        </Text>
      }
    />
  )
}
