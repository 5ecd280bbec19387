import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from '@remix-run/node'
import { Form, isRouteErrorResponse, Link, useActionData, useLoaderData, useLocation, useRouteError } from '@remix-run/react'
import { useTranslation } from 'react-i18next'
import { BUYER_KEY_HEADER, UNICODE_PATTERN } from '#contract/codes.ts'
import { ordersApi } from '#contract/orders.ts'
import { chatApi, type ChatDetails, MESSAGE_MAX } from '#contract/messages.ts'
import { useNonce } from '#app/components/layout/nonce.tsx'
import { PublicError, PublicShell } from '#app/components/layout/public-shell.tsx'
import { MessageText } from '#app/components/messages/message-text.tsx'
import type { RouteHandle } from '#app/root.tsx'
import { ApiError, api } from '#app/.server/api.ts'
import { getToken } from '#app/.server/auth.ts'
import { CHAT_PAGE_SIZE, chatPages, loadThread, messageText, refusalOf } from '#app/.server/messages.ts'
import { readPurchases } from '#app/.server/purchases.ts'
import { readForm, serviceUnavailable } from '#app/.server/request.ts'
import { formatDateTime } from '#app/utils/format.ts'

export const handle: RouteHandle = { hydrate: false }

/**
 * The after-sales chat of a purchase of this share (issue 10, decision 102). Whose it is: a signed-in
 * buyer's order of the share, reached through its account; else the order this browser created,
 * proven by the buyer key kept beside its number in the signed, httpOnly purchase cookie — never the
 * order number alone, which the seller sees too. Nothing of it appears in the URL. Works without
 * JavaScript (a reload shows new answers); with it, a few lines of script add answers as they arrive.
 */
type Proof = {
  unicode: string
  orderNo: string
  /** The account's token, or the browser's buyer key header: what every chat call carries. */
  token: string | null
  headers: Record<string, string>
  /** The live stream: the account's own, or this purchase's. */
  live: string
}

/** What the error page needs besides its message: whether to offer "Log in" or the workplace in its header. */
type Refusal = { key: string; loggedIn: boolean }

async function proofOf(request: Request, unicode: string | undefined): Promise<Proof> {
  const token = await getToken(request)
  if (!unicode || !UNICODE_PATTERN.test(unicode)) throw data<Refusal>({ key: 'messages.noPurchase', loggedIn: Boolean(token) }, { status: 404 })
  if (token) {
    const mine = await api(request, ordersApi.list, { token, query: { unicode, pageSize: 20 } }).catch((e: unknown) => {
      // A session that ended is no account: the browser's own purchase may still be here.
      if (e instanceof ApiError && e.status === 401) return null
      throw e
    })
    const paid = mine?.list.find((o) => o.payment_status === 'Completed' || o.payment_status === 'Refund')
    if (paid) return { unicode, orderNo: paid.orderNo, token, headers: {}, live: '/events' }
  }
  const kept = (await readPurchases(request))[unicode]
  if (kept?.buyerKey) return { unicode, orderNo: kept.orderNo, token: null, headers: { [BUYER_KEY_HEADER]: kept.buyerKey }, live: `/events?share=${unicode}` }
  throw data<Refusal>({ key: 'messages.noPurchase', loggedIn: Boolean(token) }, { status: 404 })
}

async function settle(request: Request, e: unknown): Promise<never> {
  if (e instanceof ApiError && e.unreachable) throw serviceUnavailable()
  const loggedIn = Boolean(await getToken(request))
  if (e instanceof ApiError && e.status < 500) throw data<Refusal>({ key: e.status === 409 ? e.msg : 'messages.noPurchase', loggedIn }, { status: e.status === 409 ? 409 : 404 })
  throw e
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const { unicode, orderNo, token, headers, live } = await proofOf(request, params.unicode)
    const found = await api(request, chatApi.list, { token, headers, query: { order_no: orderNo, pageNum: 1, pageSize: 1 } })
    const id = found.list[0]?.id
    const chat: ChatDetails | null = id
      ? await loadThread(chatPages(request), (pageNum) =>
          api(request, chatApi.details, { token, headers, query: { chat_id: id, order_no: orderNo, pageNum, pageSize: CHAT_PAGE_SIZE } }),
        )
      : null
    return { unicode, orderNo, chat, live, loggedIn: Boolean(await getToken(request)) }
  } catch (e) {
    return settle(request, e)
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const form = await readForm(request, ['open', 'send', 'close'])
  const intent = form.get('intent')
  try {
    const { unicode, orderNo, token, headers } = await proofOf(request, params.unicode)
    const here = `/share/${unicode}/chat`
    if (intent === 'open') {
      await api(request, chatApi.create, { token, headers, body: { order_no: orderNo } })
      return redirect(here)
    }
    const found = await api(request, chatApi.list, { token, headers, query: { order_no: orderNo, pageNum: 1, pageSize: 1 } })
    const chatId = found.list[0]?.id
    if (!chatId) return redirect(here)
    if (intent === 'close') {
      await api(request, chatApi.updateStatus, { token, headers, body: { chat_id: chatId, status: 'closed', order_no: orderNo } })
      return redirect(here)
    }
    const text = messageText(form)
    if (!text.ok) return data({ error: text.error }, { status: 400 })
    await api(request, chatApi.send, { token, headers, body: { chat_id: chatId, content: text.content, order_no: orderNo } })
    return redirect(here)
  } catch (e) {
    const refused = refusalOf(e)
    if (refused) return data({ error: refused }, { status: 400 })
    return settle(request, e)
  }
}

/**
 * With JavaScript: the buyer's stream (the account's `/events`, or this purchase's `/events?share=…`)
 * appends each new line of this chat as text (links made with DOM nodes, never HTML) and reloads on a
 * status change.
 */
function LiveScript({ src, chatId, platform, you }: { src: string; chatId: number; platform: string; you: string }) {
  const nonce = useNonce()
  const js = `(function(){if(!window.EventSource)return;var list=document.getElementById('chat-lines');var s=new EventSource(${JSON.stringify(src)});
s.addEventListener('chat',function(ev){var e=JSON.parse(ev.data);if(e.chat_id!==${chatId}||document.getElementById('line-'+e.message.id))return;
var li=document.createElement('li');li.id='line-'+e.message.id;li.className='ps-line '+(e.message.sender==='user'?'ps-line-mine':'');
var who=document.createElement('small');who.textContent=(e.message.sender==='admin'?${JSON.stringify(platform)}:${JSON.stringify(you)})+' · '+(function(d){try{return new Intl.DateTimeFormat('sv-SE',{timeZone:'Asia/Shanghai',year:'numeric',month:'2-digit',day:'2-digit',hour:'2-digit',minute:'2-digit',second:'2-digit'}).format(d)}catch(x){return d.toLocaleString()}})(new Date(e.message.created_at));li.appendChild(who);
var p=document.createElement('p');var re=/\\bhttps?:\\/\\/[^\\s<>"'\`]+/gi,at=0,m,t=e.message.content;while((m=re.exec(t))){var href=m[0].replace(/[.,;:!?)\\]}。，；：！？）】]+$/,'');p.appendChild(document.createTextNode(t.slice(at,m.index)));var a=document.createElement('a');a.href=href;a.textContent=href;a.target='_blank';a.rel='noopener noreferrer nofollow ugc';p.appendChild(a);at=m.index+href.length;re.lastIndex=at}
p.appendChild(document.createTextNode(t.slice(at)));li.appendChild(p);list.appendChild(li);var none=document.getElementById('no-lines');if(none)none.remove();li.scrollIntoView({block:'nearest'})});
s.addEventListener('chatStatus',function(ev){if(JSON.parse(ev.data).chat_id===${chatId})location.reload()})})()`
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: js }} />
}

export default function VisitorChat() {
  const { t } = useTranslation()
  const { unicode, orderNo, chat, live, loggedIn } = useLoaderData<typeof loader>()
  const last = useActionData<typeof action>()
  const location = useLocation()
  const older = new URLSearchParams(location.search)
  older.set('pages', String(Number(older.get('pages') ?? '1') + 1))
  return (
    <PublicShell loggedIn={loggedIn}>
      <article className="ps-card">
        <h1>{t('messages.afterSales')}</h1>
        <p className="ps-muted">
          {t('messages.orderNo')}: {orderNo} · <Link to={`/share/${unicode}`}>{t('messages.backToShare')}</Link>
        </p>
        {!chat ? (
          <Form method="post">
            <p>{t('messages.visitorIntro')}</p>
            <button type="submit" name="intent" value="open" className="ps-btn ps-btn-block">
              {t('messages.openChat')}
            </button>
          </Form>
        ) : (
          <>
            <p>
              <span className={`ps-tag ${chat.status === 'closed' ? '' : 'ps-tag-ok'}`} data-testid="chat-status">
                {t(`messages.status.${chat.status}`)}
              </span>
            </p>
            {chat.is_end ? null : (
              <p>
                <Link to={`?${older}`} replace>
                  {t('messages.loadOlder')}
                </Link>
              </p>
            )}
            <ol id="chat-lines" className="ps-lines" aria-live="polite" data-testid="chat-lines">
              {chat.list.map((m) => (
                <li key={m.id} id={`line-${m.id}`} className={`ps-line ${m.sender === 'user' ? 'ps-line-mine' : ''}`} data-testid="chat-line">
                  <small>
                    {t(m.sender === 'admin' ? 'messages.platform' : 'messages.you')} · {formatDateTime(m.created_at)}
                  </small>
                  <p>
                    <MessageText text={m.content} />
                  </p>
                </li>
              ))}
            </ol>
            {chat.list.length === 0 ? (
              <p id="no-lines" className="ps-muted">
                {t('messages.noLines')}
              </p>
            ) : null}
            {chat.status === 'closed' ? (
              <p className="ps-alert">{t('messages.chatIsClosed')}</p>
            ) : (
              <>
                <Form method="post" className="ps-chat-form">
                  <label htmlFor="chat-content">{t('messages.yourMessage')}</label>
                  <textarea id="chat-content" name="content" rows={3} maxLength={MESSAGE_MAX} required aria-invalid={last ? true : undefined} aria-describedby={last ? 'chat-error' : undefined} />
                  {last ? (
                    <p id="chat-error" className="ps-error" role="alert">
                      {t(last.error)}
                    </p>
                  ) : null}
                  <button type="submit" name="intent" value="send" className="ps-btn ps-btn-block">
                    {t('messages.send')}
                  </button>
                </Form>
                <Form method="post">
                  <button type="submit" name="intent" value="close" className="ps-btn ps-btn-light ps-btn-block" style={{ marginTop: 8 }}>
                    {t('messages.closeChat')}
                  </button>
                </Form>
              </>
            )}
            <LiveScript src={live} chatId={chat.id} platform={t('messages.platform')} you={t('messages.you')} />
          </>
        )}
      </article>
    </PublicShell>
  )
}

export const meta: MetaFunction<typeof loader> = () => [{ title: 'PayShare' }, { name: 'robots', content: 'noindex' }]

export function ErrorBoundary() {
  const error = useRouteError()
  const refusal = isRouteErrorResponse(error) ? (error.data as Partial<Refusal> | null) : null
  const key = isRouteErrorResponse(error) ? (refusal?.key ?? 'messages.noPurchase') : 'pages.serverError'
  return <PublicError status={isRouteErrorResponse(error) ? error.status : 500} messageKey={key} loggedIn={refusal?.loggedIn} />
}
