/*
 * am_console.c — the console's message formats, and the built-in behaviors that
 * talk to the outside: the console and the host link's ask proxy (see
 * am_console.h).
 */
#include "am_console.h"

#include "am_link_wire.h"

_Static_assert(AM_CONSOLE_LINE_MAX <= AM_LINK_OUT_MAX, "a console line fits one CONSOLE frame");

static uint32_t put_udec(char *buf, uint32_t v)
{
    char tmp[10];
    uint32_t n = 0, i = 0;
    do { tmp[n++] = (char)('0' + v % 10u); v /= 10u; } while (v);
    while (n) buf[i++] = tmp[--n];
    return i;
}

static uint32_t put_hex(char *buf, uint32_t v)
{
    for (int i = 7; i >= 0; i--) buf[7 - i] = "0123456789abcdef"[(v >> (4 * i)) & 15u];
    return 8;
}

static uint32_t put_str(char *buf, const char *s)
{
    uint32_t n = 0;
    while (s[n]) { buf[n] = s[n]; n++; }
    return n;
}

const char *am_fault_name(uint32_t cause)
{
    static const char *const names[AM_FAULT_COUNT_] = {
#define AM_IF_CAUSE(name, value, doc) [value] = #name,
#include "am_iface.def"
    };
    return cause < AM_FAULT_COUNT_ ? names[cause] : "UNKNOWN";
}

const char *am_fault_op_name(uint32_t op)
{
    static const char *const names[AM_OP_COUNT_] = {
        "NONE", "SEND", "CREATE", "BECOME", "SET_HANDLER", "ABORT", "COMMIT", "RUN", "DISPATCH",
    };
    return op < AM_OP_COUNT_ ? names[op] : "UNKNOWN";
}

uint32_t am_console_format_fault(const am_fault_info *f, uint32_t len, const am_word *msg,
                                 char *buf)
{
    uint32_t n = put_str(buf, "fault: ");
    n += put_str(buf + n, am_fault_name(f->cause));
    n += put_str(buf + n, " op=");
    n += put_str(buf + n, am_fault_op_name(f->op));
    n += put_str(buf + n, " value=");
    n += put_hex(buf + n, f->value);
    n += put_str(buf + n, " code=");
    n += put_hex(buf + n, f->code);
    n += put_str(buf + n, " target=");
    n += put_hex(buf + n, f->target);
    n += put_str(buf + n, " beh=");
    if (f->beh == 0xffffffffu) buf[n++] = '-';
    else n += put_udec(buf + n, f->beh);
    n += put_str(buf + n, " msg=[");
    for (uint32_t i = 0; i < len && i < AM_MAX_MSG_WORDS; i++) {
        if (i) buf[n++] = ' ';
        n += put_hex(buf + n, msg[i]);
    }
    n += put_str(buf + n, "]\n");
    return n;
}

uint32_t am_console_format(uint32_t len, const am_word *msg, char *buf)
{
    am_word w0 = len ? msg[0] : 0;
    am_word v = len > 1 ? msg[1] : 0;
    uint32_t nb = w0 >> 8, n = 0;

    if (len >= 1 && (w0 & 0xffu) == AM_CON_TEXT && nb <= (len - 1) * 4 &&
        nb <= AM_CON_TEXT_MAX) {
        /* a word at a time, constant shifts (a one-bit shifter pays per bit) */
        for (uint32_t i = 0; i < nb; i += 4) {
            am_word w = msg[1 + i / 4];
            buf[i] = (char)w;
            buf[i + 1] = (char)(w >> 8);
            buf[i + 2] = (char)(w >> 16);
            buf[i + 3] = (char)(w >> 24);
        }
        n = nb;
    } else if (len == 2 && w0 == AM_CON_INT) {
        if (v & 0x80000000u) { buf[n++] = '-'; v = ~v + 1u; }
        n += put_udec(buf + n, v);
    } else if (len == 2 && w0 == AM_CON_UINT) {
        n = put_udec(buf, v);
    } else if (len == 2 && w0 == AM_CON_HEX) {
        n = put_hex(buf, v);
    } else if (am_console_is_export(len, msg)) {
        n = 0;
    } else {
        n = put_str(buf, "<console: bad message len=");
        n += put_udec(buf + n, len);
        n += put_str(buf + n, " w0=");
        n += put_hex(buf + n, w0);
        buf[n++] = '>';
    }
    return n;
}

int am_console_is_export(uint32_t len, const am_word *msg)
{
    return len == 3 && msg[0] == AM_CON_EXPORT && msg[1] < AM_EXPORT_MAX;
}

void am_console_run(am_ctx *ctx, int link_on, am_link_put_fn put, void *user)
{
    uint8_t f[AM_LINK_HDR + AM_CONSOLE_LINE_MAX + AM_LINK_CRC];
    char *text = (char *)f + AM_LINK_HDR;
    am_word msg[AM_MAX_MSG_WORDS];
    uint32_t len = am_msg_len(ctx), n;
    for (uint32_t i = 0; i < AM_MAX_MSG_WORDS; i++) msg[i] = am_msg(ctx, i);
    am_fault_info fi;
    if (am_fault(ctx, &fi)) {
        n = am_console_format_fault(&fi, len, msg, text);
    } else {
        n = am_console_format(len, msg, text);
        if (am_console_is_export(len, msg)) {
            /* the table is the state; its length ends at the last name in use */
            am_word t[AM_EXPORT_MAX];
            uint32_t k = 0;
            for (uint32_t i = 0; i < AM_EXPORT_MAX; i++) {
                t[i] = i == msg[1] ? msg[2] : am_state(ctx, i);
                if (t[i] != AM_NIL) k = i + 1;
            }
            am_become(ctx, AM_BEH_CONSOLE, k, t);
        }
    }
    if (n == 0) return;
    if (link_on) am_link_emit(f, AM_LINK_CONSOLE, 0, n, put, user);
    else put(user, (const uint8_t *)text, n);
}

int am_link_proxy_run(am_ctx *ctx, int link_on, am_link_put_fn put, void *user)
{
    if (am_state(ctx, 0) != 0) return 0;
    if (link_on) {
        uint8_t f[AM_LINK_HDR + 4 * AM_MAX_MSG_WORDS + AM_LINK_CRC];
        uint32_t n = am_msg_len(ctx);
        if (n > AM_MAX_MSG_WORDS) n = AM_MAX_MSG_WORDS;
        for (uint32_t i = 0; i < n; i++) am_link_put32(f + AM_LINK_HDR + 4 * i, am_msg(ctx, i));
        am_link_emit(f, AM_LINK_REPLY, am_state(ctx, 1), 4 * n, put, user);
    }
    return 1;
}
