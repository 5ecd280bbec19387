import { Button, Group, Stack } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import type { AuditEvent } from '#contract/audit.ts'
import { UrlDialog } from '#app/components/dialogs/url-dialog.tsx'
import { AuditTrail } from './audit-trail.tsx'

/**
 * A list row's audit trail in a URL dialog (`?history=<id>`, issue 9): a modal with JavaScript, a
 * section of the page without it; Close is a link back to the list.
 */
export function HistoryDialog({ kind, item, events, closeTo }: { kind: 'order' | 'withdrawal'; item: string; events: AuditEvent[]; closeTo: string }) {
  const { t } = useTranslation()
  return (
    <UrlDialog title={t(`oversight.history.${kind}`, { item })} closeTo={closeTo}>
      <Stack>
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
