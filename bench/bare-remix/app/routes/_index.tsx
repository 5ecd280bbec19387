export const loader = () => ({ title: 'bare', items: ['a', 'b', 'c'] })

export default function Index() {
  return (
    <main>
      <h1>Bare Remix page</h1>
      <p>No UI library, no data source.</p>
    </main>
  )
}
