import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { useLoaderData } from '@remix-run/react'
import { OAuthLoginPage } from '#app/components/oauth/login-page.tsx'
import { oauthLoginAction, oauthLoginLoader } from '#app/.server/oauth-routes.ts'

/** LoginQQ (SPEC §2): public; the QQ callback, bind-or-create, or the start of a QQ login. */
export const loader = (args: LoaderFunctionArgs) => oauthLoginLoader(args, 'qq')
export const action = (args: ActionFunctionArgs) => oauthLoginAction(args, 'qq')

export default function LoginQQ() {
  const { provider, nickname, offered } = useLoaderData<typeof loader>()
  return <OAuthLoginPage provider={provider} nickname={nickname} offered={offered} />
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title ?? 'PayShare' }]
