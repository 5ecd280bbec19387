import { Anchor, Card, Stack, Title } from '@mantine/core'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Link, useLoaderData } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BindingList } from '#app/components/oauth/bindings.tsx'
import { bindAction, bindLoader } from '#app/.server/oauth-routes.ts'

/** /bind/qq (SPEC §2: QQ binding, hidden from the menu): the QQ bind callback, and bind / unbind. */
export const loader = (args: LoaderFunctionArgs) => bindLoader(args, 'qq')
export const action = (args: ActionFunctionArgs) => bindAction(args, 'qq')

export default function BindQQ() {
  const { t } = useTranslation()
  const { bindings } = useLoaderData<typeof loader>()
  return (
    <Stack maw={640}>
      <Title order={2}>{t('menu.bindQQ')}</Title>
      <Card withBorder padding="lg">
        <BindingList bindings={bindings} only="qq" from="/bind/qq" />
      </Card>
      <Anchor component={Link} to="/user/setting#bindings" size="sm">
        {t('oauth.toSettings')}
      </Anchor>
    </Stack>
  )
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
