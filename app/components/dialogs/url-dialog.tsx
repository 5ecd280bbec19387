import { Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core'
import { Form, Link, useLocation, useNavigate } from '@remix-run/react'
import { type ReactNode, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { useIsPending } from '../forms/fields.tsx'
import { useHydrated } from '#app/hooks/use-hydrated.ts'

/**
 * Dialogs opened by a search param (`?delete=12`), so a confirm step works without JavaScript: a link
 * opens it, the loader fills it, Cancel is a link back. `open(key, value)` builds that link from the
 * current URL (other dialogs closed); `closed` is the URL without any of them.
 */
export function useUrlDialogs(keys: readonly string[]) {
  const location = useLocation()
  const base = new URLSearchParams(location.search)
  for (const k of keys) base.delete(k)
  const href = (p: URLSearchParams) => (p.toString() ? `${location.pathname}?${p}` : location.pathname)
  return {
    closed: href(base),
    open: (key: string, value: string | number) => {
      const p = new URLSearchParams(base)
      p.set(key, String(value))
      return href(p)
    },
  }
}

/** A modal with JavaScript; without it the same content as a section of the page. `wide` for a table (a history). */
export function UrlDialog({
  title,
  closeTo,
  role = 'dialog',
  wide,
  children,
}: {
  title: string
  closeTo: string
  role?: 'dialog' | 'alertdialog'
  wide?: boolean
  children: ReactNode
}) {
  const hydrated = useHydrated()
  const navigate = useNavigate()
  const titleId = useId()
  if (!hydrated) {
    return (
      <Paper withBorder shadow="sm" p="lg" role={role} aria-labelledby={titleId} maw={wide ? 920 : 560}>
        <Title order={4} id={titleId} mb="sm">
          {title}
        </Title>
        {children}
      </Paper>
    )
  }
  return (
    <Modal opened onClose={() => navigate(closeTo, { replace: true, preventScrollReset: true })} title={title} centered size={wide ? 'xl' : undefined}>
      {children}
    </Modal>
  )
}

type ConfirmProps = {
  title: string
  children: ReactNode
  /** Where the form posts: the list URL without the dialog, so the page behind shows any error. */
  action: string
  closeTo: string
  intent: string
  fields: Record<string, string | number>
  confirmLabel: string
  color?: string
}

/** A confirm step: the question, Cancel (a link) and the POST button that does it. */
export function ConfirmDialog({ title, children, action, closeTo, intent, fields, confirmLabel, color = 'red' }: ConfirmProps) {
  return (
    <UrlDialog title={title} closeTo={closeTo} role="alertdialog">
      <Form method="post" action={action} preventScrollReset>
        {Object.entries(fields).map(([k, v]) => (
          <input key={k} type="hidden" name={k} value={v} />
        ))}
        <Stack>
          <Text size="sm">{children}</Text>
          <DialogButtons closeTo={closeTo} intent={intent} label={confirmLabel} color={color} />
        </Stack>
      </Form>
    </UrlDialog>
  )
}

/** The confirm step of a list's delete: posts `intent=delete` and the item's id to the list behind it. */
export function DeleteDialog({
  id,
  closeTo,
  confirmLabel,
  title,
  children,
}: {
  id: number
  closeTo: string
  confirmLabel: string
  title?: string
  children: ReactNode
}) {
  const { t } = useTranslation()
  return (
    <ConfirmDialog title={title ?? t('common.confirmDelete')} action={closeTo} closeTo={closeTo} intent="delete" fields={{ id }} confirmLabel={confirmLabel}>
      {children}
    </ConfirmDialog>
  )
}

/** A dialog form's buttons: Cancel (a link back to the page behind) and the submit button of `intent`. */
export function DialogButtons({ closeTo, intent, label, color }: { closeTo: string; intent: string; label: string; color?: string }) {
  const { t } = useTranslation()
  const pending = useIsPending({ intent })
  return (
    <Group justify="flex-end">
      <Button component={Link} to={closeTo} variant="default" preventScrollReset replace>
        {t('common.cancel')}
      </Button>
      <Button type="submit" name="intent" value={intent} color={color} loading={pending}>
        {label}
      </Button>
    </Group>
  )
}
