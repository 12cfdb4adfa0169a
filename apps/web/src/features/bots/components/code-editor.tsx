import { useEffect, useRef } from 'react';
import { EditorView, basicSetup } from 'codemirror';
import { EditorState } from '@codemirror/state';
import { javascript } from '@codemirror/lang-javascript';
import { python } from '@codemirror/lang-python';
import { oneDark } from '@codemirror/theme-one-dark';

export interface CodeEditorProps {
  value: string;
  language: 'javascript' | 'python';
  readOnly: boolean;
  onChange: (value: string) => void;
  label: string;
}

/**
 * CodeMirror 6 with JavaScript or Python highlighting (loaded only on /bots: the page imports this
 * module lazily). Rebuilt when the language or the read-only state changes; typing never re-renders it.
 */
export default function CodeEditor({ value, language, readOnly, onChange, label }: CodeEditorProps) {
  const hostRef = useRef<HTMLDivElement>(null);
  const viewRef = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const view = new EditorView({
      parent: host,
      state: EditorState.create({
        doc: viewRef.current?.state.doc.toString() ?? value,
        extensions: [
          basicSetup,
          language === 'python' ? python() : javascript(),
          oneDark,
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.theme({
            '&': { fontSize: '12px', height: '100%' },
            '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace' },
          }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    viewRef.current = view;
    return () => view.destroy();
    // The document is carried over from the previous view; `value` only seeds the first one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, readOnly, label]);

  // A value set from outside (a template, an upload) replaces the document.
  useEffect(() => {
    const view = viewRef.current;
    if (view && view.state.doc.toString() !== value) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: value } });
    }
  }, [value]);

  return (
    <div
      ref={hostRef}
      className="h-72 overflow-hidden rounded-md border border-line"
      data-testid="code-editor"
    />
  );
}
