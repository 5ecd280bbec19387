import { Button, Group, Stack } from '@mantine/core'
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import type { AuditEvent } from '#contract/audit.ts'
import { UrlDialog } from '#app/components/dialogs/url-dialog.tsx'
import { AuditTrail } from './audit-trail.tsx'

/**
 * A list row's audit trail in a URL dialog (`?history=<id>`, `?view=<id>`; issue 9): a modal with
 * JavaScript, a section of the page without it; Close is a link back to the list. `children` come
 * before the trail (what an appeal says, say); `wide` for a share's long trail.
 */
export function HistoryDialog({ title, events, closeTo, wide, children }: { title: string; events: AuditEvent[]; closeTo: string; wide?: boolean; children?: ReactNode }) {
  const { t } = useTranslation()
  return (
    <UrlDialog title={title} closeTo={closeTo} wide={wide}>
      <Stack>
        {children}
        <AuditTrail events={events} />
        <Group justify="flex-end">
          <Button component={Link} to={closeTo} variant="default" preventScrollReset replace>
            {t('oversight.history.close')}
          </Button>
        </Group>
      </Stack>
    </UrlDialog>
  )
}
