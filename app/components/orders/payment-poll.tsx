import { useNonce } from '#app/components/layout/nonce.tsx'

/**
 * The waiting pages' 1-second check (DESIGN §3 Buying): a tiny nonce'd script asks `statusUrl` until the
 * order is no longer Pending, then goes to `doneUrl`. Without JavaScript the pages refresh themselves.
 */
export function PaymentPollScript({ statusUrl, doneUrl }: { statusUrl: string; doneUrl: string }) {
  const nonce = useNonce()
  const js = `(function(){function p(){fetch(${JSON.stringify(statusUrl)},{headers:{accept:'application/json'}}).then(function(r){return r.json()}).then(function(d){if(d.status!=='Pending'){location.href=${JSON.stringify(doneUrl)}}else{setTimeout(p,1000)}}).catch(function(){setTimeout(p,1000)})}setTimeout(p,1000)})()`
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: js }} />
}
