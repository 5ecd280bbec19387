import { Button, Group, type Modal, Notification, Paper, Text, Title } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import { Form, useLocation } from '@remix-run/react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { apiMessage } from '#app/utils/api-message.ts'

export type ToastData = { type: 'success' | 'error' | 'info'; key: string; values?: Record<string, string> }

const COLORS = { success: 'green', error: 'red', info: 'arcoblue' } as const
/** SPEC §8: messages show for 5 seconds. */
export const TOAST_MS = 5000

/**
 * A flash message. With JavaScript: a Mantine notification for 5 s. Without: the same text rendered in
 * the page, fading out after 5 s by CSS alone.
 */
export function FlashToast({ toast }: { toast: ToastData | null }) {
  const { t } = useTranslation()
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  // Once per flash: `t` changes when the rest of the catalogs arrive after hydration, which must not show
  // a flash that came with the page (a redirect's toast) a second time.
  const shown = useRef<ToastData | null>(null)
  useEffect(() => {
    if (!toast || shown.current === toast) return
    shown.current = toast
    notifications.show({ color: COLORS[toast.type], message: apiMessage(t, toast.key, toast.values), autoClose: TOAST_MS })
  }, [toast, t])
  if (!toast || hydrated) return null
  return (
    <div className="ps-static-toast" role={toast.type === 'error' ? 'alert' : 'status'}>
      <Notification color={COLORS[toast.type]} withCloseButton={false}>
        {apiMessage(t, toast.key, toast.values)}
      </Notification>
    </div>
  )
}

/**
 * A form's messages after a 500–504 to a page post (no JavaScript): open the "Confirm logout" dialog
 * with them (app/.server/failures.ts), the root loader of that page having run before the answer.
 */
export const CONFIRM_LOGOUT_IN_FORM = 'confirmLogout'

/**
 * SPEC §8 "Confirm logout": after a 500–504 answer. A modal with JavaScript; a page section without.
 * Cancel stays on the page; 'Re-Login' logs out (POST /logout) and returns to login.
 */
export function ConfirmLogout({ open }: { open: boolean }) {
  const { t } = useTranslation()
  const location = useLocation()
  const [hydrated, setHydrated] = useState(false)
  const [opened, setOpened] = useState(open)
  // The modal's module (portal, focus trap, scroll lock) only when there is something to confirm
  // (issue 11 JS budget); until it is here the page section stands in, as without JavaScript.
  const [Dialog, setDialog] = useState<typeof Modal | null>(null)
  useEffect(() => setHydrated(true), [])
  useEffect(() => setOpened(open), [open])
  useEffect(() => {
    if (open && !Dialog) import('./modal-module.ts').then((m) => setDialog(() => m.Modal))
  }, [open, Dialog])
  const body = (
    <>
      <Text mb="md">{t('errors.logoutText')}</Text>
      <Form method="post" action="/logout">
        <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
        <Group justify="flex-end">
          {hydrated ? (
            <Button variant="default" type="button" onClick={() => setOpened(false)}>
              {t('common.cancel')}
            </Button>
          ) : (
            <Button variant="default" component="a" href={location.pathname + location.search}>
              {t('common.cancel')}
            </Button>
          )}
          <Button type="submit">{t('errors.reLogin')}</Button>
        </Group>
      </Form>
    </>
  )
  if (!open) return null
  if (!hydrated || !Dialog) {
    return (
      <Paper withBorder shadow="md" p="lg" m="md" role="alertdialog" aria-labelledby="confirm-logout-title" className="ps-confirm-logout">
        <Title order={3} id="confirm-logout-title" mb="sm">
          {t('errors.logoutTitle')}
        </Title>
        {body}
      </Paper>
    )
  }
  return (
    <Dialog opened={opened} onClose={() => setOpened(false)} title={t('errors.logoutTitle')} centered>
      {body}
    </Dialog>
  )
}
