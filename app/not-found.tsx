import Link from "next/link";

export const metadata = { title: "Not found" };

export default function NotFound() {
  return (
    <main className="fallback">
      <h1>Page not found</h1>
      <p className="muted">There is nothing at this address, or you do not have access to it.</p>
      <p>
        <Link href="/">Go to your projects</Link>
      </p>
    </main>
  );
}
