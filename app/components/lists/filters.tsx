import { Button, Group, NativeSelect, TextInput } from '@mantine/core'
import { Form, useSearchParams } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

/**
 * The GET filter form of every list page (decision 124): native inputs read back from the URL and a
 * Search button, so filtering works without JavaScript and a filtered list is a link.
 */
export function FilterForm({ children, gap = 'sm' }: { children: ReactNode; gap?: 'sm' | 'md' }) {
  const { t } = useTranslation()
  return (
    <Form method="get">
      <Group align="flex-end" gap={gap}>
        {children}
        <Button type="submit" variant="light">
          {t('common.search')}
        </Button>
      </Group>
    </Form>
  )
}

/** A text filter (a keyword, a code): its value is the URL's. */
export function TextFilter({ name, label, maxLength = 100, w }: { name: string; label: string; maxLength?: number; w?: number }) {
  const [params] = useSearchParams()
  return <TextInput name={name} label={label} defaultValue={params.get(name) ?? ''} maxLength={maxLength} w={w} />
}

/**
 * A choice filter, "All" first unless `all` is false (a sort): `options` are `[value, label]`.
 * `fallback` is the value shown when the URL has none.
 */
export function SelectFilter({ name, label, options, all = true, fallback = '' }: { name: string; label: string; options: readonly (readonly [string, string])[]; all?: boolean; fallback?: string }) {
  const { t } = useTranslation()
  const [params] = useSearchParams()
  const data = options.map(([value, text]) => ({ value, label: text }))
  return <NativeSelect name={name} label={label} defaultValue={params.get(name) ?? fallback} data={all ? [{ value: '', label: t('common.all') }, ...data] : data} />
}
