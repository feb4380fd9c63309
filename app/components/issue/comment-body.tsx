import { renderCommentMarkdown } from "@/src/core/markdown/render";

/**
 * The only place the UI inserts HTML it did not build with JSX: the output of
 * renderCommentMarkdown, which escapes raw HTML and allows only http(s)/mailto links
 * (see src/core/markdown/render.ts and its tests).
 */
export function CommentBody({ text }: { text: string }) {
  return <div className="comment-body" data-testid="comment-body" dangerouslySetInnerHTML={{ __html: renderCommentMarkdown(text) }} />;
}
