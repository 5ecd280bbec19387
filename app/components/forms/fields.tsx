import { type FieldMetadata, getInputProps } from '@conform-to/react'
import { Alert, Checkbox, PasswordInput, Text, Textarea, TextInput } from '@mantine/core'
import { useNavigation } from '@remix-run/react'
import { type ComponentProps, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { apiMessage } from '#app/utils/api-message.ts'
import { CONFIRM_LOGOUT_IN_FORM, ConfirmLogout } from '../feedback/flash.tsx'
import { useHydrated } from '#app/hooks/use-hydrated.ts'

/** Conform's error keys, translated; the first one is shown. */
function useFieldError(meta: FieldMetadata<unknown>) {
  const { t } = useTranslation()
  const key = meta.errors?.[0]
  return key ? t(key, { defaultValue: t('validation.invalid') }) : undefined
}

type TextProps = Omit<ComponentProps<typeof TextInput>, 'error' | 'name'> & {
  meta: FieldMetadata<string | undefined | null>
  type?: 'text' | 'email' | 'tel' | 'search'
}

/** A Mantine text input bound to a conform field (name, value, constraints, aria and the error). */
export function TextField({ meta, type = 'text', ...rest }: TextProps) {
  const error = useFieldError(meta as FieldMetadata<unknown>)
  const { key, ...props } = getInputProps(meta, { type })
  return <TextInput key={key} {...props} {...rest} error={error} />
}

export function PasswordField({ meta, ...rest }: Omit<ComponentProps<typeof PasswordInput>, 'error' | 'name'> & { meta: FieldMetadata<string | undefined | null> }) {
  const error = useFieldError(meta as FieldMetadata<unknown>)
  const { key, ...props } = getInputProps(meta, { type: 'password' })
  // The show/hide eye works only with JavaScript: until the page has hydrated there is none, so it is
  // no dead stop for a keyboard or a text browser (issue 23). `false`, as Mantine draws it for `undefined`.
  const hydrated = useHydrated()
  return <PasswordInput key={key} {...props} {...rest} rightSection={hydrated ? rest.rightSection : false} error={error} />
}

export function TextareaField({ meta, ...rest }: Omit<ComponentProps<typeof Textarea>, 'error' | 'name'> & { meta: FieldMetadata<string | undefined | null> }) {
  const error = useFieldError(meta as FieldMetadata<unknown>)
  const { key, type: _type, ...props } = getInputProps(meta, { type: 'text' })
  return <Textarea key={key} {...props} {...rest} error={error} />
}

export function CheckboxField({ meta, label }: { meta: FieldMetadata<string | boolean | undefined | null>; label: ReactNode }) {
  const error = useFieldError(meta as FieldMetadata<unknown>)
  const { key, ...props } = getInputProps(meta, { type: 'checkbox' })
  // Mantine gives a checkbox's error no id, so the input's aria-describedby (conform's errorId) would
  // point at nothing: the message carries that id itself.
  return <Checkbox key={key} {...props} label={label} error={error ? <span id={meta.errorId}>{error}</span> : undefined} />
}

/**
 * Form-level messages (API msgs), once, above the submit button — with or without JavaScript. No toast
 * as well (issue 13: one message, one place); each message is its own sentence on its own line.
 */
export function FormErrors({ errors, id }: { errors?: string[]; id?: string }) {
  const { t } = useTranslation()
  const shown = errors?.filter((e) => e !== CONFIRM_LOGOUT_IN_FORM) ?? []
  if (!errors?.length) return null
  return (
    <>
      {shown.length ? (
        <Alert color="red" id={id} role="alert" variant="light">
          {shown.map((e, i) => (
            <Text key={i} size="sm">
              {apiMessage(t, e)}
            </Text>
          ))}
        </Alert>
      ) : null}
      <ConfirmLogout open={shown.length < errors.length} />
    </>
  )
}

/** The messages of a list page's failed row action (`rowRefusal`'s answer) for `FormErrors`: the msg, and the dialog after 500–504. */
export function rowErrors(answer: { error?: string; confirmLogout?: boolean } | null | undefined): string[] | undefined {
  if (!answer?.error) return undefined
  return answer.confirmLogout ? [answer.error, CONFIRM_LOGOUT_IN_FORM] : [answer.error]
}

/** True while this page's form (optionally with this intent) is being submitted. */
export function useIsPending({ formAction, intent }: { formAction?: string; intent?: string } = {}) {
  const navigation = useNavigation()
  if (navigation.state === 'idle' || navigation.formMethod?.toUpperCase() !== 'POST') return false
  if (formAction && navigation.formAction !== formAction) return false
  if (intent && navigation.formData?.get('intent') !== intent) return false
  return true
}
