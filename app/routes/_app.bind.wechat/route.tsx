import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { BindPage } from '#app/components/oauth/bindings.tsx'
import { bindAction, bindLoader } from '#app/.server/oauth-routes.ts'

/** /bind/wechat (SPEC §2: WeChat binding, hidden from the menu): the WeChat bind callback, and bind / unbind. */
export const loader = (args: LoaderFunctionArgs) => bindLoader(args, 'wechat')
export const action = (args: ActionFunctionArgs) => bindAction(args, 'wechat')

export default function BindWeChat() {
  const { provider, bindings } = useLoaderData<typeof loader>()
  return <BindPage provider={provider} bindings={bindings} />
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
