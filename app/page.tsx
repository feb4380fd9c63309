export const dynamic = "force-dynamic";
export default function Home() { return <p>hello {new Date().toISOString()}</p>; }
