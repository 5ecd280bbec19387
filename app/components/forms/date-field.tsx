import { TextInput } from '@mantine/core'
import { useTranslation } from 'react-i18next'
import { parseDateInput } from '#app/utils/format.ts'

/**
 * A date field of the console's filter forms (issue 11: date inputs follow the console's language, not
 * the browser's — a native `<input type=date>` shows the browser's own format and words). A text field in
 * the console's date format `YYYY-MM-DD`, with its hint and message in the console's language; the
 * loaders read what it sends with `parseDateInput` (`listParams`, `readStatisticsParams`). A value that is
 * not a date stays in the field with a message and filters nothing. Same without JavaScript.
 */
export function DateField({ name, label, value, error }: { name: string; label: string; value: string | null | undefined; error?: string }) {
  const { t } = useTranslation()
  const raw = value?.trim() ?? ''
  const date = raw ? parseDateInput(raw) : null
  return (
    <TextInput
      // A new value from the URL (after a search with JavaScript) replaces what was typed, normalised.
      key={date ?? raw}
      name={name}
      label={label}
      defaultValue={date ?? raw}
      placeholder={t('common.datePlaceholder')}
      inputMode="numeric"
      autoComplete="off"
      maxLength={12}
      w={150}
      error={error ?? (raw && !date ? t('validation.date') : undefined)}
    />
  )
}
