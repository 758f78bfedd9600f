/*
 * escape.c - control characters and invalid UTF-8 written as \xNN, for text
 * shown on a terminal, or as U+FFFD with markup as entities for a page, and
 * a CSV cell quoted and never a formula (escape.h).
 */
#include <assert.h>
#include <string.h>
#include "arena/escape.h"

/* Bytes of the valid UTF-8 character at s (1 to 4), or 0 when s starts
 * none (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). */
static int utf8_len(const unsigned char *s)
{
    unsigned char c = s[0];
    int n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3
                                                  : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    unsigned char lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    unsigned char hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    for (int i = 1; i < n; i++)
        if (s[i] < (i == 1 ? lo : 0x80) || s[i] > (i == 1 ? hi : 0xbf))
            return 0;
    return n;
}

size_t esc_text_end(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        unsigned char c = u[i];
        if (c < 0x80) {
            if ((c < 0x20 && c != '\n' && c != '\r' && c != '\t') || c == 0x7f)
                return i;
            i++;
            continue;
        }
        /* utf8_len reads a character's bytes until one is out of range: a
         * copy ends with a NUL, so a character cut by len is invalid. */
        unsigned char ch[5] = { 0 };
        memcpy(ch, u + i, len - i < 4 ? len - i : 4);
        int n = utf8_len(ch);
        if (n == 0 || (n == 2 && ch[0] == 0xc2 && ch[1] < 0xa0))
            return i;
        i += (size_t)n;
    }
    return len;
}

/* How the character at s shows: *len bytes of it taken, into out (at most
 * 16 bytes with the NUL): itself, or its bytes as \xNN. */
static void show_one(const unsigned char *s, size_t *len, char *out)
{
    int n = utf8_len(s);
    int control = n == 0 || (n == 1 && (s[0] < 0x20 || s[0] == 0x7f)) ||
                  (n == 2 && s[0] == 0xc2 && s[1] < 0xa0);
    *len = n ? (size_t)n : 1;
    if (!control) {
        memcpy(out, s, *len);
        out[*len] = '\0';
        return;
    }
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < *len; i++) {
        memcpy(out + 4 * i, "\\x", 2);
        out[4 * i + 2] = hex[s[i] >> 4];
        out[4 * i + 3] = hex[s[i] & 15];
    }
    out[4 * *len] = '\0';
}

char *esc_text(const char *s, char *buf, size_t cap)
{
    assert(cap >= 1);
    size_t used = 0;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        char one[17];
        size_t len;
        show_one(p, &len, one);
        size_t n = strlen(one);
        if (used + n >= cap)
            break;
        memcpy(buf + used, one, n);
        used += n;
        p += len;
    }
    buf[used] = '\0';
    return buf;
}

void esc_fputs(const char *s, FILE *out)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        char one[17];
        size_t len;
        show_one(p, &len, one);
        fputs(one, out);
        p += len;
    }
}

void esc_html(const char *text, FILE *out)
{
    const unsigned char *s = (const unsigned char *)text;
    while (s && *s) {
        int n = utf8_len(s);
        if (n == 0 || (*s < 0x20 && *s != '\n' && *s != '\t') || *s == 0x7f) {
            fputs("\xef\xbf\xbd", out);
            s++;
            continue;
        }
        switch (*s) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&#39;", out); break;
        default: fwrite(s, 1, (size_t)n, out);
        }
        s += n;
    }
}

void esc_csv(const char *s, FILE *out)
{
    /* OWASP's CSV injection advice: a spreadsheet takes a cell starting
     * with one of these for a formula (=HYPERLINK(...), +cmd|...). */
    const char *lead = s[0] && strchr("=+-@\t\r", s[0]) ? "'" : "";
    if (!strpbrk(s, ",\"\r\n")) {
        fprintf(out, "%s%s", lead, s);
        return;
    }
    fprintf(out, "\"%s", lead);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}
