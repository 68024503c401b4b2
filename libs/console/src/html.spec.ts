import { html } from './html';

describe('html', () => {
  it('escapes interpolated text, keeps nested markup and drops empty values', () => {
    const name = '<script>alert("x")</script>';
    const out = html`<p title="${name}">${name}${html`<b>ok</b>`}${[html`<i>1</i>`, '&']}${undefined}${false}</p>`;
    expect(out.value).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;<b>ok</b><i>1</i>&amp;</p>',
    );
  });
});
