import { Button } from '@mantine/core'
import { Link } from '@remix-run/react'
import { useTranslation } from 'react-i18next'

/** From one of the buyer's orders to its after-sales chat (opened on my-message after a confirm step). */
export function AfterSalesLink({ orderNo }: { orderNo: string }) {
  const { t } = useTranslation()
  return (
    <Button component={Link} to={`/user/my-message?${new URLSearchParams({ tab: 'chats', open: orderNo })}`} size="compact-xs" variant="subtle" ml={4}>
      {t('messages.afterSalesShort')}
    </Button>
  )
}
