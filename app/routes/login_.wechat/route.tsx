import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { OAuthLoginPage } from '#app/components/oauth/login-page.tsx'
import { oauthLoginAction, oauthLoginLoader } from '#app/.server/oauth-routes.ts'

/** LoginWeChat (SPEC §2): public; the WeChat callback, bind-or-create, or the start of a WeChat login. */
export const loader = (args: LoaderFunctionArgs) => oauthLoginLoader(args, 'wechat')
export const action = (args: ActionFunctionArgs) => oauthLoginAction(args, 'wechat')

export default function LoginWeChat() {
  const { provider, nickname, offered } = useLoaderData<typeof loader>()
  return <OAuthLoginPage provider={provider} nickname={nickname} offered={offered} />
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
