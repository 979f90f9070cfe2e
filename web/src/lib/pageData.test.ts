import { afterEach, describe, expect, it } from 'vitest';
import { PAGE_DATA_ID, pageDataScript, readPageData } from './pageData';

const state = (bio: string) => ({
  mutations: [],
  queries: [
    {
      queryKey: ['profiles', 'nick', 'marta'],
      queryHash: '["profiles","nick","marta"]',
      state: { data: { summary: bio } },
    },
  ],
});

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the data a page rendered on request carries', () => {
  it("cannot end its element or open markup, whatever a user's text says", () => {
    const bio = '</script><script>alert(1)</script><!-- & \u2028';
    const script = pageDataScript(state(bio) as never);
    expect(script.match(/<\/script>/g)).toHaveLength(1);
    expect(script).not.toContain('<!--');
    expect(script).toContain('\\u003c/script\\u003e');
    // Read back as the app reads it: the same text.
    document.body.innerHTML = script;
    expect(readPageData()?.queries[0]?.state.data).toEqual({ summary: bio });
  });

  it('reads nothing from a page without data, or with data it cannot use', () => {
    expect(readPageData()).toBeUndefined();
    document.body.innerHTML = `<script type="application/json" id="${PAGE_DATA_ID}">{not json</script>`;
    expect(readPageData()).toBeUndefined();
    document.body.innerHTML = `<script type="application/json" id="${PAGE_DATA_ID}">{"queries":1}</script>`;
    expect(readPageData()).toBeUndefined();
  });
});
