// am_sim_main.cpp — the Verilator testbench of the SoC: runs a program on the
// simulated machine and, in lockstep, on the reference runtime; every
// transaction the actor unit reports on its trace port is checked against the
// reference's (sim/am_cosim.c). A thin C++ shim: clocking, sampling the trace
// port, the UART and the SYS report; the checking is C.
//
//   am-sim [options] PROGRAM        (am-sim --help)
//   am-sim --link PATH [options] PROGRAM   the host link on a pseudo-terminal
//
// Exit status: 0 all transactions matched and the run ended cleanly, 1 a
// divergence (report on stderr), 2 a usage error, 3 the cycle budget ran out,
// the firmware halted abnormally, or an image lockstep cannot follow ran, 4
// a behavior crashed the host process in the reference runtime.
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <deque>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "Vam_soc.h"
#include "Vam_soc___024root.h"
#include "verilated.h"
#include "verilated_fst_c.h"

#include "am_cosim.h"
#include "am_crash.h"
#include "am_iface.h"
#include "am_progset.h"
#include "am_suggest.h"
extern "C" {
#include "am_link_target.h"
#include "am_link_wire.h"
}

namespace {

// The phases of a transaction (docs/firmware.md, "Where the cycles go"):
//   behavior  from the dispatch point's answer (the jump to the behavior)
//             to its first staging write -- SEND_W .. SPAWN, by their offsets
//             in include/am_iface.def -- or, with none, its end;
//   staging   from there to the behavior's end: its `ret` reaching the
//             dispatch point (or an ABORT / COMMIT write);
//   commit    from there to the unit's COMMIT or ABORT record;
//   dispatch  from that record to the next dispatch point answer (the
//             sequencer's END+FETCH, CHECK, the dispatch table read; a
//             collection, a dead target, a wait for the core).
// They add up to the cycles from one transaction's end to the next's.
constexpr unsigned AU_STAGE_LO = AU_SEND_W, AU_STAGE_HI = AU_SPAWN + 4 * 16 - 1,
                   AU_ABORT_LO = AU_ABORT, AU_ABORT_HI = AU_ABORT + 4 * 16 - 1;

struct Phases {
    uint64_t dispatch = 0, behavior = 0, staging = 0, commit = 0, n = 0;
};

const char usage_text[] =
    "usage: am-sim [options] PROGRAM   run PROGRAM on the simulated SoC, in lockstep\n"
    "                                  with the reference runtime\n"
    "       am-sim --list              the programs\n"
    "options:\n"
    "  --image FILE       the firmware image (.hex) to run instead of the one built\n"
    "                     from the program's folder (its header must match)\n"
    "  --arg N            the boot message is [N] instead of [] (e.g. a fuzz seed)\n"
    "  --gc-low N         collect when fewer than N slots are free, while the last\n"
    "                     collection left 2N (0..255; default: the hardware's reset\n"
    "                     value, 4; a CREATE that finds no slot collects anyway)\n"
    "  --gc-period N      collect every N dispatches + 32 per live actor (0..65535,\n"
    "                     0 = off; default 1024; docs/gc.md)\n"
    "  --max-cycles N     give up after N cycles (default 50000000; with --link: none)\n"
    "  --trace-out FILE   write every checked transaction line to FILE\n"
    "  --fst FILE         write an FST waveform (also: environment TRACE=1 ->\n"
    "                     build/sim/PROGRAM.fst)\n"
    "  --profile FILE     write the cycles spent at each program counter of the core\n"
    "                     to FILE (\"PC CYCLES\" lines; scripts/am_profile.py sums them\n"
    "                     by function: docs/firmware.md, \"Where the cycles go\")\n"
    "  --perturb SEQ      test only: corrupt the reference runtime's transaction\n"
    "                     SEQ; the checker must report a divergence there\n"
    "  --ref-gc-period N  test only: the reference runtime alone collects every N\n"
    "                     dispatches; the checker must report the first collection\n"
    "                     that differs\n"
    "  --forget SEQ       test only: the event-conservation check forgets the first\n"
    "                     send of transaction SEQ; it must report a lost event\n"
    "  --link PATH        serve the host link (docs/link.md): the simulated UART on a\n"
    "                     pseudo-terminal linked at PATH (am-link --port PATH), its\n"
    "                     bits clocked at --link-div cycles each; the machine waits\n"
    "                     for the host when idle and runs until am-link shutdown,\n"
    "                     SIGINT or SIGTERM; lockstep goes on (injections, programs\n"
    "                     loaded over the link; an image of a program set this\n"
    "                     simulator was not linked with is refused, as am-run\n"
    "                     refuses it); PATH.lock beside it keeps a second server off\n"
    "                     PATH while this one runs\n"
    "  --loader FILE      with --link: boot a loader's image FILE instead of a\n"
    "                     program -- the resident loader (build/loader/rv32im/\n"
    "                     loader.hex, the iCEBreaker's) or the in-place loader\n"
    "                     (build/inplace/rv32im/inplace.hex, the HX8K's: the program\n"
    "                     it loads runs without the link, its console compared as\n"
    "                     plain text until it halts): no program runs until am-link\n"
    "                     load sends one; lockstep starts with it (PROGRAM may be\n"
    "                     left out)\n"
    "  --link-div N       cycles per bit on the link (default 208: the iCEBreaker's\n"
    "                     24 MHz at 115,200 baud; 8: 3 Mbaud at 24 MHz; at most 371,\n"
    "                     so that a console line leaves within the watchdog's budget)\n"
    "  --quiet            no console echo, only the summary\n"
    "  --behaviors        print the program's behavior table (id, name) and exit\n"
    "exit status: 0 every transaction matched and the run ended cleanly, 1 a lockstep\n"
    "divergence (report on stderr), 2 a usage error (option, program name, file,\n"
    "image), 3 stopped: the --max-cycles budget ran out, the firmware halted\n"
    "abnormally, or an image loaded over the link whose behaviors this simulator\n"
    "lacks ran (no divergence), 4 a behavior crashed the host process in the\n"
    "reference runtime (a wild pointer, the host's stack, a division by zero)\n";

void usage(FILE *f)
{
    std::fputs(usage_text, f);
}

// The numeric options: where each goes and its range.
struct NumOpt {
    const char *name;
    uint64_t *dst;
    uint64_t lo, hi;
    const char *what;
};

// "--opt VALUE" -> *dst; on error a message naming the option, the value and
// the range. Decimal or 0x hex, no sign.
bool parse_num(const NumOpt &o, const char *s)
{
    char *end;
    errno = 0;
    unsigned long long v = std::strtoull(s, &end, 0);
    if (errno || !*s || *s == '-' || *s == '+' || *end || v < o.lo || v > o.hi) {
        std::fprintf(stderr, "am-sim: %s '%s': %s takes %s from %llu to %llu\n", o.name, s, o.name,
                     o.what, (unsigned long long)o.lo, (unsigned long long)o.hi);
        return false;
    }
    *o.dst = v;
    return true;
}

// The firmware image: one 32-bit little-endian word per line ($readmemh
// format, as scripts/am_program.py writes it). Its header (firmware/crt0.S,
// docs/programs.md) must say it was built from the same behavior table as
// the host-side copy this simulator was linked with.
enum { HDR_MAGIC = 1, HDR_BYTES, HDR_CRC, HDR_HASH, HDR_NBEH, HDR_BOOT, HDR_STACK_MIN,
       HDR_RAM, HDR_BSS_END, HDR_SRC_HASH, HDR_IFACE, HDR_WORDS };
// a loader's kind, in its header's boot word (scripts/am_program.py loader)
enum { LOADER_RESIDENT = 0, LOADER_INPLACE = 1 };

// hint: what builds the file, for a message when it is missing ("" for a
// file of the user's)
bool load_image(const char *path, const am_progset *set, uint32_t ram_words, const char *hint,
                std::vector<uint32_t> *out)
{
    FILE *f = std::fopen(path, "r");
    if (!f) {
        std::fprintf(stderr, "am-sim: cannot read the firmware image %s: %s%s\n", path,
                     std::strerror(errno), hint);
        return false;
    }
    char line[64];
    unsigned lineno = 0;
    while (std::fgets(line, sizeof line, f)) {
        lineno++;
        char *end;
        unsigned long v = std::strtoul(line, &end, 16);
        if (end == line || (*end != '\n' && *end != '\0') || v > 0xffffffffUL) {
            std::fprintf(stderr, "am-sim: %s:%u: not a hex word\n", path, lineno);
            std::fclose(f);
            return false;
        }
        out->push_back((uint32_t)v);
    }
    std::fclose(f);
    const std::vector<uint32_t> &w = *out;
    if (w.size() < HDR_WORDS || w[HDR_MAGIC] != 0x31494D41u) {
        std::fprintf(stderr, "am-sim: %s: not a firmware image (no header; docs/programs.md)\n", path);
        return false;
    }
    if (w[HDR_BYTES] != 4 * w.size()) {
        std::fprintf(stderr, "am-sim: %s: the header says %u bytes, the file holds %zu\n", path,
                     (unsigned)w[HDR_BYTES], 4 * w.size());
        return false;
    }
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < w.size(); i++) {
        uint32_t word = i == HDR_CRC ? 0 : w[i];
        for (int b = 0; b < 4; b++) {
            crc ^= (word >> (8 * b)) & 0xffu;
            for (int k = 0; k < 8; k++) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
        }
    }
    crc = ~crc;
    if (crc != w[HDR_CRC]) {
        std::fprintf(stderr, "am-sim: %s: CRC-32 %08x, the header says %08x: a damaged image\n",
                     path, (unsigned)crc, (unsigned)w[HDR_CRC]);
        return false;
    }
    if (w[HDR_IFACE] != (uint32_t)AM_IFACE_ID) {
        std::fprintf(stderr,
                     "am-sim: %s was built for another SoC interface (identity %08x; this "
                     "simulator's SoC: %08x, include/am_iface.def): rebuild it from these sources "
                     "(make sim, or make sim-run PROGRAM=...)\n",
                     path, (unsigned)w[HDR_IFACE], (unsigned)AM_IFACE_ID);
        return false;
    }
    if (!set) {   // a loader (--loader): no program of its own; its kind in the boot word
        if (w[HDR_NBEH] != 0 || w[HDR_BOOT] > LOADER_INPLACE) {
            std::fprintf(stderr, "am-sim: %s: an image with %u behaviors (kind %u), not a loader (a "
                         "loader's image has none: build/loader/rv32im/loader.hex, "
                         "build/inplace/rv32im/inplace.hex)\n", path, (unsigned)w[HDR_NBEH],
                         (unsigned)w[HDR_BOOT]);
            return false;
        }
        return true;
    }
    uint32_t hash = am_behavior_table_hash(set->behaviors, set->nbehaviors);
    if (w[HDR_HASH] != hash || w[HDR_NBEH] != set->nbehaviors) {
        std::fprintf(stderr,
                     "am-sim: %s was built from another behavior table (%u behaviors, hash %08x) "
                     "than this simulator's copy of %s (%u behaviors, hash %08x): rebuild both "
                     "(make sim, or make sim-run PROGRAM=...)\n",
                     path, (unsigned)w[HDR_NBEH], (unsigned)w[HDR_HASH], set->folder,
                     (unsigned)set->nbehaviors, (unsigned)hash);
        return false;
    }
    if (w[HDR_SRC_HASH] != set->src_hash) {
        std::fprintf(stderr,
                     "am-sim: %s was built from other sources (hash %08x) than this simulator's "
                     "copy of %s's behaviors (hash %08x): rebuild both (make sim, or make sim-run "
                     "PROGRAM=...)\n",
                     path, (unsigned)w[HDR_SRC_HASH], set->folder, (unsigned)set->src_hash);
        return false;
    }
    if (w[HDR_RAM] > 4 * ram_words) {
        std::fprintf(stderr, "am-sim: %s was linked for %u bytes of RAM, the SoC has %u\n", path,
                     (unsigned)w[HDR_RAM], (unsigned)(4 * ram_words));
        return false;
    }
    return true;
}

// The host link's side of the testbench: bytes from the pseudo-terminal
// clocked onto the UART's receive line bit by bit, 8N1 at div cycles per
// bit; bytes the UART sent go to the pseudo-terminal.
struct LinkPort {
    am_link_io io;
    bool on = false;
    uint32_t div = 208;
    std::deque<uint8_t> rxq;        // from the host, not yet on the line
    uint32_t bit = 0, left = 0;     // the frame's bit (0: idle, 1..10) and its cycles left
    uint16_t frame = 0;             // start, data, stop (LSB first)
    std::vector<char> txbuf;
    uint64_t quiet = 0;             // cycles since anything happened
    uint64_t rx_bytes = 0, tx_bytes = 0;
    // round trips: from the first start bit of the host's bytes after the
    // line was idle (or after a HELLO's answer) to the last bit of the next
    // REPLY frame: one ask at a time, as am-link ask makes them
    bool rt_open = false;
    uint64_t rt_start = 0, rt_n = 0, rt_sum = 0, rt_min = UINT64_MAX, rt_max = 0;
    uint32_t tx_pos = 0, tx_type = 0;
    // messages in: the firmware's INJECTs after the boot's, and the cycles
    // from the first to the last of them
    uint64_t inj_n = 0, inj_first = 0, inj_last = 0;

    // the firmware has set the UART up (its divider: SYS.LINK.DIV, at boot
    // before anything the trace port shows): bytes go on the line from then
    bool ready = false;

    // Images lockstep cannot follow (docs/link.md, "Loading"). The firmware
    // takes an image of any behavior table -- it brings its behaviors --
    // while the reference runtime needs the image's program set, which
    // this simulator may not have been linked with. Such an image is
    // refused as am-run refuses it, and the running program goes on: its
    // header chunk goes on the line with one bit flipped (the header's last
    // byte, inside the image's CRC, read by nothing before START), so the
    // firmware's own check refuses the image at START -- CRC mismatch,
    // counted in E_BAD_IMAGE -- and that answer's reason is made the true
    // one on its way to the host (only for an image that is otherwise good:
    // one with a real fault keeps its own reason, as on am-run, which checks
    // the CRC first; one of another interface is not flipped, the firmware
    // refuses it as that). For that the host's frames go on the line whole, each once
    // its delimiter has come (a host writes a frame at once).
    static constexpr uint32_t FLIP_BYTE = 4 * HDR_WORDS - 1;   // the header is whole by then
    static constexpr uint32_t IMAGE_MAX = 1u << 17;   // past any RAM: the machine refuses it anyway
    std::vector<uint8_t> hframe;    // the host's frame in progress
    bool hlong = false;             // ... longer than any frame to the machine: passed on as it comes
    std::vector<uint8_t> image;     // the image being loaded, from its LOAD chunks in order
    uint32_t foreign = 0;           // AM_LINK_IMAGE_TABLE / _SOURCES: its set is not ours
    bool flipped = false;           // its header chunk went to the machine with the bit flipped
    bool await_start = false;       // START of that image sent: its answer is to be mended
    uint32_t start_seq = 0, start_size = 0;
    std::vector<uint8_t> mframe;    // the machine's frame in progress, while await_start
    uint64_t refused = 0;           // images refused so far

    static bool decode(const std::vector<uint8_t> &raw, am_link_rx *rx) {
        int r = AM_LINK_RX_MORE;
        for (uint8_t b : raw) r = am_link_rx_byte(rx, b);
        return r == AM_LINK_RX_FRAME;
    }
    static void put_vec(void *user, const uint8_t *p, uint32_t n) {
        auto *v = static_cast<std::vector<uint8_t> *>(user);
        v->insert(v->end(), p, p + n);
    }
    // the set an image header names: 0 when this simulator has it, or when
    // the machine refuses the image itself (another interface: its loader
    // checks that, as am-run's does, before any table)
    static uint32_t problem_of(const uint8_t *hdr) {
        if (am_link_get32(hdr + 4 * HDR_IFACE) != (uint32_t)AM_IFACE_ID) return 0;
        uint32_t nbeh = am_link_get32(hdr + 4 * HDR_NBEH), hash = am_link_get32(hdr + 4 * HDR_HASH);
        bool table = false;
        for (const am_progset *const *ps = am_progsets; *ps; ps++)
            if ((*ps)->nbehaviors == nbeh &&
                am_behavior_table_hash((*ps)->behaviors, (*ps)->nbehaviors) == hash) {
                if ((*ps)->src_hash == am_link_get32(hdr + 4 * HDR_SRC_HASH)) return 0;
                table = true;
            }
        return table ? AM_LINK_IMAGE_SOURCES : AM_LINK_IMAGE_TABLE;
    }
    // a whole frame from the host, on its way to the line
    void host_frame() {
        uint8_t buf[AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC];
        am_link_rx rx;
        am_link_rx_init(&rx, buf, sizeof buf);
        if (decode(hframe, &rx)) {
            uint32_t type = am_link_rx_type(&rx), len = am_link_rx_len(&rx);
            const uint8_t *p = am_link_rx_payload(&rx);
            if (type == AM_LINK_HELLO) {          // a new session: a load starts again
                image.clear();
                foreign = 0;
                flipped = await_start = false;
            } else if (type == AM_LINK_LOAD && len >= 4) {
                uint32_t off = am_link_get32(p), k = len - 4;
                if (off == 0) {
                    image.clear();
                    foreign = 0;
                    flipped = false;
                }
                if (off == image.size() && off + k <= IMAGE_MAX) image.insert(image.end(), p + 4, p + 4 + k);
                if (off <= FLIP_BYTE && FLIP_BYTE < off + k && image.size() > FLIP_BYTE &&
                    am_link_get32(image.data() + 4 * HDR_MAGIC) == AM_IMAGE_MAGIC)
                    foreign = problem_of(image.data());
                if (foreign && off <= FLIP_BYTE && FLIP_BYTE < off + k) {
                    uint8_t f[AM_LINK_HDR + AM_LINK_IN_MAX + AM_LINK_CRC];
                    std::memcpy(f + AM_LINK_HDR, p, len);
                    f[AM_LINK_HDR + 4 + FLIP_BYTE - off] ^= 0x80;
                    hframe.clear();
                    am_link_emit(f, type, am_link_rx_seq(&rx), len, put_vec, &hframe);
                    flipped = true;
                }
            } else if (type == AM_LINK_START && len == 4 && flipped) {
                await_start = true;
                start_seq = am_link_rx_seq(&rx);
                start_size = am_link_get32(p);
            }
        }
        rxq.insert(rxq.end(), hframe.begin(), hframe.end());
        hframe.clear();
    }
    void from_host(const uint8_t *b, size_t n) {
        for (size_t i = 0; i < n; i++) {
            if (hlong) {
                rxq.push_back(b[i]);
                hlong = b[i] != 0;
                continue;
            }
            hframe.push_back(b[i]);
            if (b[i] == 0) {
                host_frame();
            } else if (hframe.size() >= AM_LINK_WIRE_MAX(AM_LINK_IN_MAX)) {
                rxq.insert(rxq.end(), hframe.begin(), hframe.end());   // the machine drops it whole
                hframe.clear();
                hlong = true;
            }
        }
    }
    // a whole frame from the machine while the flipped image's START waits
    // for its answer
    void machine_frame() {
        uint8_t buf[AM_LINK_HDR + AM_LINK_OUT_MAX + AM_LINK_CRC];
        am_link_rx rx;
        am_link_rx_init(&rx, buf, sizeof buf);
        if (decode(mframe, &rx) && am_link_rx_seq(&rx) == start_seq &&
            !(am_link_rx_type(&rx) & AM_LINK_FROM_BEHAVIOR)) {
            const uint8_t *p = am_link_rx_payload(&rx);
            am_image_info info;
            uint32_t problem = 0;
            if (am_link_rx_type(&rx) == AM_LINK_ERROR && am_link_rx_len(&rx) == 12 &&
                am_link_get32(p + 4) == AM_LINK_E_BAD_IMAGE && am_link_get32(p + 8) == AM_LINK_IMAGE_CRC &&
                start_size <= image.size() &&
                am_image_check(image.data(), start_size, start_size, &info, &problem) == AM_LINK_OK) {
                uint8_t f[AM_LINK_HDR + 12 + AM_LINK_CRC];
                std::memcpy(f + AM_LINK_HDR, p, 12);
                am_link_put32(f + AM_LINK_HDR + 8, foreign);
                mframe.clear();
                am_link_emit(f, AM_LINK_ERROR, start_seq, 12, put_vec, &mframe);
                refused++;
                std::fprintf(stderr, "am-sim: refused a %u-byte image loaded over the link: %s "
                             "(%u behaviors, hash %08x, sources %08x), and lockstep needs the image's "
                             "host-side behaviors; the running program goes on\n",
                             (unsigned)start_size,
                             foreign == AM_LINK_IMAGE_TABLE
                                 ? "its behavior table is not one this simulator was linked with"
                                 : "it was built from other sources than this simulator's copy of its behaviors",
                             (unsigned)info.nbehaviors, (unsigned)info.table_hash, (unsigned)info.src_hash);
            }
            await_start = false;
        }
        txbuf.insert(txbuf.end(), mframe.begin(), mframe.end());
        mframe.clear();
    }

    // the receive line's level this cycle
    int line(uint64_t cycle) {
        if (bit == 0) {
            if (rxq.empty() || !ready) return 1;
            if (!rt_open) { rt_open = true; rt_start = cycle; }
            frame = (uint16_t)(1u << 9 | (uint32_t)rxq.front() << 1);
            rxq.pop_front();
            rx_bytes++;
            bit = 1;
            left = div;
        }
        int level = frame >> (bit - 1) & 1;
        if (--left == 0) {
            left = div;
            if (++bit > 10) bit = 0;
        }
        quiet = 0;
        return level;
    }
    // a byte the UART sent: a REPLY frame's delimiter ends a round trip
    // (its 10 bits still to go on the line)
    void tx(uint8_t b, uint64_t cycle) {
        if (!await_start) {
            txbuf.push_back((char)b);
        } else {
            mframe.push_back(b);
            if (b == 0) machine_frame();
            else if (mframe.size() >= AM_LINK_WIRE_MAX(AM_LINK_OUT_MAX)) {   // no frame: as it is
                txbuf.insert(txbuf.end(), mframe.begin(), mframe.end());
                mframe.clear();
            }
        }
        quiet = 0;
        if (tx_pos == 1) tx_type = b;          // after COBS' first code byte: the type
        tx_pos = b == 0 ? 0 : tx_pos + 1;
        if (b == 0 && tx_type == AM_LINK_REPLY && rt_open) {
            uint64_t t = cycle - rt_start + 10u * div;
            rt_n++; rt_sum += t;
            if (t < rt_min) rt_min = t;
            if (t > rt_max) rt_max = t;
            rt_open = false;
        }
        if (b == 0 && tx_type == AM_LINK_HELLO_R) rt_open = false;   // a session's start is no ask
    }
    // what the host sent (no wait), and what the machine sent out
    bool pump(bool idle) {
        if (!txbuf.empty()) {
            am_link_io_out(&io, txbuf.data(), txbuf.size());
            tx_bytes += txbuf.size();
            txbuf.clear();
        }
        if (rxq.size() < 4096) {
            struct pollfd pf = { io.fd, POLLIN, 0 };
            // a machine that waits for the host need not spin the simulation
            if (poll(&pf, 1, idle ? 2 : 0) > 0 && (pf.revents & POLLIN)) {
                uint8_t b[4096];
                ssize_t n = read(io.fd, b, sizeof b);
                if (n > 0) from_host(b, (size_t)n);
                else if (n < 0 && errno != EAGAIN && errno != EINTR) return false;
            }
        }
        return true;
    }
};

volatile sig_atomic_t g_stop = 0;
void on_signal(int) { g_stop = 1; }

// The program set whose behavior table an image header names (an image
// loaded over the link): its hash, its count and its sources.
const am_progset *set_of_header(const uint32_t *w)
{
    for (const am_progset *const *ps = am_progsets; *ps; ps++)
        if ((*ps)->nbehaviors == w[HDR_NBEH] && (*ps)->src_hash == w[HDR_SRC_HASH] &&
            am_behavior_table_hash((*ps)->behaviors, (*ps)->nbehaviors) == w[HDR_HASH])
            return *ps;
    return nullptr;
}

}  // namespace

// The console's last byte on stdout ended no line: a message of am-sim's
// own after it starts on a line of its own (end_console_line).
static bool con_midline;

static void end_console_line()
{
    if (!con_midline) return;
    std::putchar('\n');
    std::fflush(stdout);
    con_midline = false;
}

int main(int argc, char **argv)
{
    uint64_t max_cycles = 50000000, perturb = 0, arg = 0, forget = 0;
    uint64_t gc_low = 4, gc_period = 1024, ref_gc_period = ~0ull;
    bool gc_set = false;
    const char *name = nullptr, *trace_out_path = nullptr, *fst_path = nullptr;
    const char *image_path = nullptr, *profile_path = nullptr, *link_path = nullptr;
    const char *loader_path = nullptr;
    uint64_t link_div = 208;
    bool max_set = false;
    bool quiet = false, list_behaviors = false;
    const NumOpt opts[] = {
        { "--max-cycles", &max_cycles, 1, UINT64_MAX, "a cycle count" },
        { "--arg", &arg, 0, 0xffffffffull, "a 32-bit word" },
        { "--gc-low", &gc_low, 0, 255, "a slot count (the unit's 8-bit GC_LOW)" },
        { "--gc-period", &gc_period, 0, 65535, "a dispatch count (the unit's 16-bit GC_PERIOD; 0: off)" },
        { "--perturb", &perturb, 1, UINT64_MAX, "a transaction number" },
        { "--forget", &forget, 1, UINT64_MAX, "a transaction number" },
        { "--ref-gc-period", &ref_gc_period, 0, 65535, "a dispatch count" },
        { "--link-div", &link_div, 2, 65535, "cycles per bit" },
    };
    auto find_opt = [&](const std::string &a) -> const NumOpt * {
        for (const NumOpt &o : opts)
            if (a == o.name) return &o;
        return nullptr;
    };

    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto need = [&](const char *opt) -> const char * {
            if (i + 1 >= argc) { std::fprintf(stderr, "am-sim: %s needs a value\n", opt); std::exit(2); }
            return argv[++i];
        };
        if (a == "--help" || a == "-h") { usage(stdout); return 0; }
        else if (a == "--list" || a == "--list-demos") {
            am_progsets_list(stdout, a == "--list-demos");
            return 0;
        }
        else if (a == "--image") image_path = need("--image");
        else if (a == "--quiet") quiet = true;
        else if (a == "--behaviors") list_behaviors = true;
        else if (a == "--trace-out") trace_out_path = need("--trace-out");
        else if (a == "--fst") fst_path = need("--fst");
        else if (a == "--profile") profile_path = need("--profile");
        else if (a == "--link") link_path = need("--link");
        else if (a == "--loader") loader_path = need("--loader");
        else if (const NumOpt *o = find_opt(a)) {
            if (!parse_num(*o, need(o->name))) return 2;
            if (o->dst == &gc_low || o->dst == &gc_period) gc_set = true;
            if (o->dst == &max_cycles) max_set = true;
        } else if (a[0] == '+') {
            continue;  // Verilator runtime arguments
        } else if (a[0] == '-') {
            am_suggest sg;
            std::fprintf(stderr, "am-sim: unknown option '%s'%s (am-sim --help lists them)\n", a.c_str(),
                         am_suggest_option(&sg, a.c_str(), usage_text));
            return 2;
        } else if (!name) name = argv[i];
        else { std::fprintf(stderr, "am-sim: one program at a time\n"); return 2; }
    }
    // The console and the link's ask proxy write their frames inside their
    // transactions, waiting for the UART: at --link-div N the longest
    // (a console line, AM_LINK_WIRE_MAX(AM_LINK_OUT_MAX) bytes of 10 bits)
    // must leave in 3/4 of the firmware's watchdog budget, or every such
    // transaction aborts with WATCHDOG, its bytes half sent.
    const uint64_t line_bits = 10ull * AM_LINK_WIRE_MAX(AM_LINK_OUT_MAX);
    const uint64_t max_div = AM_DEFAULT_WATCHDOG_CYCLES / 4 * 3 / line_bits;
    if (link_path && link_div > max_div) {
        std::fprintf(stderr, "am-sim: --link-div %llu: a console line (%llu bits on the wire) would "
                     "take %llu cycles, more than 3/4 of the watchdog's budget of a transaction "
                     "(%u cycles): at most %llu\n", (unsigned long long)link_div,
                     (unsigned long long)line_bits, (unsigned long long)(link_div * line_bits),
                     (unsigned)AM_DEFAULT_WATCHDOG_CYCLES, (unsigned long long)max_div);
        return 2;
    }
    if (loader_path && !link_path) {
        std::fprintf(stderr, "am-sim: --loader needs --link (the loader serves the link)\n");
        return 2;
    }
    if (loader_path && image_path) {
        std::fprintf(stderr, "am-sim: --loader and --image: one image boots\n");
        return 2;
    }
    // With the loader no program runs until one is loaded; the reference
    // runtime then starts afresh with that image's program set. Until then
    // it waits with the first program's set (or NAME's), unused.
    if (!name && loader_path && am_progsets[0]) name = am_progsets[0]->programs[0].name;
    if (!name) { usage(stderr); return 2; }
    const am_progset *set = nullptr;
    const am_program *prog = am_program_find(name, &set);
    if (!prog) {
        am_program_unknown(stderr, "am-sim", name);
        return 2;
    }

    if (list_behaviors) {
        am_behaviors_print(stdout, set->behaviors, set->nbehaviors);
        return 0;
    }

    std::string fst_default;
    const char *trace_env = std::getenv("TRACE");
    if (!fst_path && trace_env && std::strcmp(trace_env, "1") == 0) {
        fst_default = std::string("build/sim/") + name + ".fst";
        fst_path = fst_default.c_str();
    }

    if (fst_path) {   // Verilator's FST writer says nothing when it cannot open the file
        FILE *f = std::fopen(fst_path, "w");
        if (!f) {
            std::fprintf(stderr, "am-sim: --fst %s: cannot write: %s\n", fst_path, std::strerror(errno));
            return 2;
        }
        std::fclose(f);
    }

    FILE *profile = nullptr;
    std::map<uint32_t, uint64_t> pc_cycles;
    if (profile_path) {
        profile = std::fopen(profile_path, "w");
        if (!profile) {
            std::fprintf(stderr, "am-sim: --profile %s: cannot write: %s\n", profile_path,
                         std::strerror(errno));
            return 2;
        }
    }

    FILE *trace_out = nullptr;
    if (trace_out_path) {
        trace_out = std::fopen(trace_out_path, "w");
        if (!trace_out) {
            std::fprintf(stderr, "am-sim: --trace-out %s: cannot write: %s\n", trace_out_path,
                         std::strerror(errno));
            return 2;
        }
    }

    // The reference runtime with the hardware's bounds (rtl/am_soc.v defaults).
    am_config cfg;
    am_config_default(&cfg);
    cfg.test_perturb_seq = perturb;
    cfg.gc_low = (uint32_t)gc_low;
    cfg.gc_period = (uint32_t)(ref_gc_period != ~0ull ? ref_gc_period : gc_period);
    cfg.behaviors = set->behaviors;
    cfg.nbehaviors = set->nbehaviors;
    cfg.link = link_path != nullptr;   // the console and proxies frame their output
    cosim *cs = cosim_new(&cfg, prog->boot, (am_word)arg, trace_out);
    if (!cs) { std::fprintf(stderr, "am-sim: cannot start the reference runtime\n"); return 2; }
    // a division by zero, which the RISC-V core commits, crashes the reference
    am_crash_report("am-sim", prog->name, " in the reference runtime", 4);
    cosim_test_forget(cs, forget);

    std::string prog_name = name;

    Verilated::commandArgs(argc, argv);
    auto ctxp = std::make_unique<VerilatedContext>();
    auto top = std::make_unique<Vam_soc>(ctxp.get());
    std::unique_ptr<VerilatedFstC> fst;
    if (fst_path) {
        ctxp->traceEverOn(true);
        fst = std::make_unique<VerilatedFstC>();
        top->trace(fst.get(), 99);
        fst->open(fst_path);
    }

    // the image goes into the RAM before reset (sim/am_sim.vlt makes it visible)
    auto &ram = top->rootp->am_soc__DOT__ram__DOT__mem_q;
    const uint32_t ram_words = sizeof ram.m_storage / sizeof ram.m_storage[0];
    std::vector<uint32_t> image;
    // the loaders and the project's images: make sim builds them; a folder
    // of one's own: its sim-run
    const char *hint = loader_path ? " (make sim builds the loaders: build/loader/rv32im/loader.hex, "
                                     "build/inplace/rv32im/inplace.hex)"
                     : image_path ? ""
                     : " (make sim builds the project's programs' images; a folder of your own: "
                       "make sim-run PROGRAM=DIR NAME=NAME)";
    if (!load_image(loader_path ? loader_path : image_path ? image_path : set->image,
                    loader_path ? nullptr : set, ram_words, hint, &image))
        return 2;
    // the loader's time: no program, nothing to compare, until an image loaded over the link runs
    bool in_loader = loader_path != nullptr;
    // what the in-place loader loads runs without the link: plain console
    bool loads_plain = in_loader && image[HDR_BOOT] == LOADER_INPLACE;
    // the link once everything it needs is there (a missing image leaves no link behind)
    LinkPort link;
    if (link_path) {
        char err[256];
        if (am_link_io_open(&link.io, link_path, 0, err, sizeof err) != 0) {
            std::fprintf(stderr, "am-sim: --link: %s\n", err);
            return 2;
        }
        link.on = true;
        link.div = (uint32_t)link_div;
        cosim_set_link(cs);
        if (!max_set) max_cycles = UINT64_MAX;
        signal(SIGINT, on_signal);
        signal(SIGTERM, on_signal);
        signal(SIGPIPE, SIG_IGN);
        std::fprintf(stderr, "am-sim: %s: the host link on %s (%u cycles per bit); am-link --port %s\n",
                     loader_path ? "the loader" : name, link_path, (unsigned)link.div, link_path);
    }
    if (in_loader)
        std::fprintf(stderr, "am-sim: the %s loader %s runs: no program until am-link load\n",
                     loads_plain ? "in-place" : "resident", loader_path);
    for (uint32_t i = 0; i < ram_words; i++) ram.m_storage[i] = i < image.size() ? image[i] : 0;

    top->boot_beh_i = prog->boot;
    top->boot_arg_i = (uint32_t)arg;
    top->link_cfg_i = link.on ? ((uint32_t)SYS_LINK_ON | (uint32_t)SYS_LINK_STOP |
                                 (uint32_t)link.div << SYS_LINK_DIV_LSB) : 0u;
    top->gc_cfg_i = gc_set ? ((uint32_t)SYS_GC_CONFIG_SET | (uint32_t)gc_low << SYS_GC_CONFIG_LOW_LSB |
                              (uint32_t)gc_period << SYS_GC_CONFIG_PERIOD_LSB) : 0u;
    top->uart_rx_i = 1;
    top->rst_ni = 0;
    top->clk_i = 0;

    cosim_txn txn;
    cosim_txn_clear(&txn);
    bool in_txn = false, diverged = false;
    std::vector<uint32_t> report;
    Phases ph;
    uint64_t t_end = 0, t_entry = 0, t_stage = 0, t_cwr = 0;
    bool dp_waiting = false, link_failed = false;
    bool unfollowable = false;   // an image of a set we lack runs: lockstep stopped there
    uint64_t cycle = 0, restarts = 0;   // restarts: the SoC restarted the core (a trap)
    uint64_t loads = 0;
    auto t0 = std::chrono::steady_clock::now();

    for (; cycle < max_cycles && !top->halt_o; cycle++) {
        top->rst_ni = cycle >= 4;
        top->clk_i = 0;
        if (link.on) {
            top->uart_rx_i = link.line(cycle);
            if ((cycle & 1023) == 0) {
                if (g_stop) break;
                bool idle = ++link.quiet > 64 && link.rxq.empty() && link.bit == 0;
                if (!link.pump(idle)) { link_failed = true; break; }
            }
        }
        top->eval();
        if (fst) fst->dump(2 * cycle);

        // Sample the combinational outputs before the rising edge.
        if (top->con_strobe_o) {
            if (in_loader) link.ready = true;   // its divider is set: it has spoken
            else cosim_uart_byte(cs, top->con_byte_o);
            if (link.on) {
                link.tx(top->con_byte_o, cycle);
            } else if (!quiet) {
                std::putchar(top->con_byte_o);
                std::fflush(stdout);
                con_midline = top->con_byte_o != '\n';
            }
        }
        if (top->reboot_o & 2) {
            // an image loaded over the link now runs: the reference runtime
            // starts afresh with its program set's host-side behaviors
            auto &mem = top->rootp->am_soc__DOT__ram__DOT__mem_q;
            uint32_t w[HDR_WORDS];
            for (int i = 0; i < HDR_WORDS; i++) w[i] = mem.m_storage[i];
            const am_progset *ns = set_of_header(w);
            if (!ns) {
                // (the link refuses such an image before it runs: LinkPort;
                // one that got by stops the run, which is no divergence)
                std::fprintf(stderr, "am-sim: an image loaded over the link has a behavior table "
                             "(%u behaviors, hash %08x, sources %08x) this simulator was not linked "
                             "with: lockstep cannot go on; stopped\n", (unsigned)w[HDR_NBEH],
                             (unsigned)w[HDR_HASH], (unsigned)w[HDR_SRC_HASH]);
                unfollowable = true;
                break;
            }
            cosim_free(cs);
            cfg.behaviors = ns->behaviors;
            cfg.nbehaviors = ns->nbehaviors;
            cfg.link = !loads_plain;
            cs = cosim_new(&cfg, w[HDR_BOOT], 0, trace_out);
            if (!cs) { std::fprintf(stderr, "am-sim: cannot start the reference runtime\n"); return 2; }
            if (!loads_plain) cosim_set_link(cs);
            set = ns;
            // the image names its boot behavior; the folder's program that
            // boots with it names the run (else the behavior does)
            prog_name = ns->behaviors[w[HDR_BOOT]].name;
            for (const am_program *p = ns->programs; p->name; p++)
                if (p->boot == w[HDR_BOOT]) { prog_name = p->name; break; }
            loads++;
            std::fprintf(stderr, "am-sim: a %u-byte image loaded over the link runs (%s, boot "
                         "behavior %s); lockstep goes on with its host-side behaviors%s\n",
                         (unsigned)w[HDR_BYTES], ns->folder, ns->behaviors[w[HDR_BOOT]].name,
                         loads_plain ? " (no link: its console is plain text)" : "");
            cosim_txn_clear(&txn);
            in_txn = false;
            in_loader = false;
            report.clear();
        }
        if (top->report_strobe_o) report.push_back(top->report_word_o);
        if (profile) pc_cycles[top->rootp->am_soc__DOT__cpu__DOT__reg_pc]++;
        if (top->restart_o) restarts++;
        if (top->dbg_au_valid_o && in_txn && t_entry && top->dbg_au_we_o) {
            unsigned a = top->dbg_au_addr_o;
            if (a >= AU_STAGE_LO && a <= AU_STAGE_HI && !t_stage) t_stage = cycle;
            if ((a == AU_COMMIT || (a >= AU_ABORT_LO && a <= AU_ABORT_HI)) && !t_cwr) t_cwr = cycle;
        }
        if (top->dbg_dp_wait_o && !dp_waiting && in_txn && t_entry && !t_cwr) t_cwr = cycle;
        dp_waiting = top->dbg_dp_wait_o && !top->dbg_dp_done_o;
        if (top->dbg_dp_done_o && in_txn && !t_entry) t_entry = cycle + 1;
        if (top->trace_valid_o && in_loader) {
            std::fprintf(stderr, "am-sim: the loader used the actor unit (trace kind %u): it has "
                         "no program\n", (unsigned)top->trace_kind_o);
            diverged = true;
        } else if (top->trace_valid_o) {
            unsigned kind = top->trace_kind_o;
            link.quiet = 0;
            link.ready = true;
            uint32_t words[8];
            for (int w = 0; w < 8; w++) words[w] = top->trace_words_o[w];
            uint32_t len = top->trace_len_o;
            if (len > 8) len = 8;
            switch (kind) {
            case AM_TRACE_DISPATCH:
                cosim_txn_clear(&txn);
                in_txn = true;
                txn.seq = top->trace_seq_o;
                txn.target = top->trace_ref_o;
                txn.beh = top->trace_beh_o;
                txn.len = len;
                std::memcpy(txn.msg, words, sizeof txn.msg);
                t_entry = t_stage = t_cwr = 0;
                break;
            case AM_TRACE_CREATE:
                if (txn.ncreates < COSIM_MAX_EFFECTS) {
                    auto &c = txn.creates[txn.ncreates++];
                    c.ref = top->trace_ref_o;
                    c.beh = top->trace_beh_o;
                    c.n = len;
                    std::memcpy(c.st, words, sizeof c.st);
                }
                break;
            case AM_TRACE_SEND:
                if (txn.nsends < COSIM_MAX_EFFECTS) {
                    auto &s = txn.sends[txn.nsends++];
                    s.target = top->trace_ref_o;
                    s.n = len;
                    std::memcpy(s.msg, words, sizeof s.msg);
                }
                break;
            case AM_TRACE_BECOME:
                txn.has_become = 1;
                txn.become_beh = top->trace_beh_o;
                txn.become_n = len;
                std::memcpy(txn.become_st, words, sizeof txn.become_st);
                txn.state_set = 0;        // a BECOME replaces the words staged before it
                break;
            case AM_TRACE_STATE:
                txn.state_set |= 1u << (top->trace_len_o & 7u);
                txn.state_v[top->trace_len_o & 7u] = words[0];
                break;
            case AM_TRACE_HANDLER:
                txn.has_handler = 1;       // the last one wins, as for BECOME
                txn.handler = top->trace_ref_o;
                break;
            case AM_TRACE_COMMIT:
            case AM_TRACE_ABORT:
                txn.committed = kind == AM_TRACE_COMMIT;
                if (!txn.committed) {
                    txn.cause = top->trace_cause_o;
                    txn.code = top->trace_code_o;
                    txn.op = top->trace_op_o;
                    txn.value = top->trace_value_o;
                    if (txn.cause == AM_FAULT_DEAD_TARGET) txn.beh = 0xffffffffu;
                }
                if (cosim_check(cs, &txn) != 0) diverged = true;
                // the phases of this transaction (above)
                if (t_entry) {
                    uint64_t t_ret = t_cwr ? t_cwr : cycle;   // (the unit's own abort: WATCHDOG, STACK)
                    uint64_t b_end = t_stage ? t_stage : t_ret;
                    if (t_end) ph.dispatch += t_entry - t_end;
                    ph.behavior += b_end - t_entry;
                    ph.staging += t_ret - b_end;
                    ph.commit += cycle - t_ret;
                } else if (t_end) {
                    ph.dispatch += cycle - t_end;   // no behavior ran (DEAD_TARGET)
                }
                ph.n++;
                t_end = cycle;
                in_txn = false;
                break;
            case AM_TRACE_GC:
            case AM_TRACE_GC_DEMAND:
                // reclaimed, live after, free after, on demand (docs/trace-format.md);
                // a retry's: the CREATEs its abandoned attempt made (still in txn)
                cosim_gc(cs, top->trace_seq_o, top->trace_ref_o, top->trace_beh_o, top->trace_code_o,
                         kind == AM_TRACE_GC_DEMAND, in_txn ? txn.ncreates : 0);
                break;
            case AM_TRACE_GC_COLLECT:
                if (cosim_collect(cs, top->trace_seq_o, top->trace_ref_o, top->trace_beh_o,
                                  top->trace_code_o) != 0)
                    diverged = true;
                break;
            case AM_TRACE_SPAWN:
            case AM_TRACE_INJECT:
            case AM_TRACE_UNPIN:
                if (link.on && kind == AM_TRACE_INJECT && cosim_checked(cs) > 0) {
                    if (!link.inj_n++) link.inj_first = cycle;
                    link.inj_last = cycle;
                }
                // between transactions: the boot's, then the host link's
                if (cosim_ext(cs, kind, top->trace_ref_o, top->trace_beh_o, len, words) != 0)
                    diverged = true;
                break;
            default:
                break;
            }
        }
        if (diverged) break;

        top->clk_i = 1;
        top->eval();
        if (fst) fst->dump(2 * cycle + 1);
    }
    if (link.on) {
        link.pump(false);
        am_link_io_close(&link.io);
    }
    auto t1 = std::chrono::steady_clock::now();
    double secs = std::chrono::duration<double>(t1 - t0).count();
    if (fst) fst->close();
    top->final();
    if (trace_out) std::fclose(trace_out);
    if (profile) {
        for (const auto &pc : pc_cycles)
            std::fprintf(profile, "%08x %llu\n", (unsigned)pc.first, (unsigned long long)pc.second);
        std::fclose(profile);
    }

    int rc = 0;
    bool stopped = link.on && (g_stop || (top->halt_o && top->halt_code_o == 3));
    if (diverged) {
        rc = 1;
    } else if (unfollowable) {
        rc = 3;
    } else if (link_failed) {
        std::fprintf(stderr, "am-sim: --link %s: the pseudo-terminal failed\n", link_path);
        rc = 3;
    } else if (stopped && in_loader) {
        end_console_line();
        std::fprintf(stderr, "am-sim: stopped in the loader: no image was loaded\n");
    } else if (stopped) {
        // the host's SHUTDOWN (or a signal): events may still be queued
        if (cosim_finish_stopped(cs) != 0) rc = 1;
    } else if (!top->halt_o) {
        end_console_line();
        std::fprintf(stderr, "am-sim: %s: no halt after %llu cycles, %llu transactions checked in lockstep "
                     "(--max-cycles N gives it more)\n", name, (unsigned long long)cycle,
                     (unsigned long long)cosim_checked(cs));
        rc = 3;
    } else if (top->halt_ok_o != (top->halt_code_o == 0)) {   // what the boards' LEDs show
        end_console_line();
        std::fprintf(stderr, "am-sim: %s: halt_ok_o %u disagrees with halt code %u\n", name,
                     (unsigned)top->halt_ok_o, (unsigned)top->halt_code_o);
        rc = 3;
    } else if (top->halt_code_o != 0) {
        end_console_line();
        std::fprintf(stderr, "am-sim: %s: firmware halted with code %u\n", name,
                     (unsigned)top->halt_code_o);
        rc = 3;
    } else if (cosim_finish(cs) != 0) {
        rc = 1;
    }

    // The firmware's end-of-run report: "RPT0", cycles, dispatches, commits,
    // aborts, faults, queue high-water, live, GC runs, reclaimed, cycles,
    // max pause, most live after a collection (firmware/fw_main.c).
    if (report.size() == 13 && report[0] == 0x52505430u) {
        uint64_t cyc = report[1], disp = report[2];
        std::printf("\n[%s] lockstep: %llu transactions checked, %s; hardware: cycles=%llu "
                    "dispatches=%llu commits=%u aborts=%u queue-high-water=%u live=%u\n",
                    prog_name.c_str(), (unsigned long long)cosim_checked(cs),
                    rc == 1 ? "DIVERGED" : "0 divergences", (unsigned long long)cyc,
                    (unsigned long long)disp, report[3], report[4], report[6], report[7]);
        if (restarts)
            std::printf("[%s] core restarts: %llu (traps, bus errors, watchdog aborts, reboots)\n", prog_name.c_str(),
                        (unsigned long long)restarts);
        std::printf("[%s] gc: runs=%u reclaimed=%u cycles=%u (%.2f%% of all, %.1f per dispatch) "
                    "max-pause=%u live-after-gc-max=%u\n",
                    prog_name.c_str(), report[8], report[9], report[10],
                    cyc ? 100.0 * report[10] / (double)cyc : 0.0,
                    disp ? report[10] / (double)disp : 0.0, report[11], report[12]);
        if (ph.n) {
            double n = (double)ph.n;
            std::printf("[%s] cycles/dispatch %.1f = dispatch %.1f + behavior %.1f + "
                        "staging %.1f + commit %.1f (mean over %llu dispatches)\n",
                        prog_name.c_str(), (double)(ph.dispatch + ph.behavior + ph.staging + ph.commit) / n,
                        ph.dispatch / n, ph.behavior / n, ph.staging / n, ph.commit / n,
                        (unsigned long long)ph.n);
        }
        std::printf("[%s] simulation: %llu cycles in %.2f s = %.2f M cycles/s\n", prog_name.c_str(),
                    (unsigned long long)cycle, secs, secs > 0 ? cycle / secs / 1e6 : 0.0);
    } else if (rc == 0 && !(stopped && (g_stop || in_loader))) {
        std::fprintf(stderr, "am-sim: %s: no end-of-run report from the firmware\n", name);
        rc = 3;
    }
    if (link.on) {
        uint64_t fb, fs;
        cosim_link_frames(cs, &fb, &fs);
        std::printf("[%s] link: %llu bytes in, %llu out; frames out: %llu by behaviors (compared), "
                    "%llu by the link service; %llu images loaded; lockstep: %llu transactions "
                    "checked, %s\n", prog_name.c_str(), (unsigned long long)link.rx_bytes,
                    (unsigned long long)link.tx_bytes, (unsigned long long)fb,
                    (unsigned long long)fs, (unsigned long long)loads,
                    (unsigned long long)cosim_checked(cs),
                    rc == 1 ? "DIVERGED"
                    : unfollowable ? "0 divergences, then stopped: a loaded image's behaviors are not this simulator's"
                    : "0 divergences");
        if (link.refused)
            std::printf("[%s] link: %llu images refused: their program sets are not this simulator's "
                        "(docs/link.md, \"Loading\")\n", prog_name.c_str(),
                        (unsigned long long)link.refused);
        if (link.inj_n > 1)
            std::printf("[%s] link: %llu messages injected in %llu cycles (the first to the last): "
                        "%.0f cycles a message\n", prog_name.c_str(), (unsigned long long)link.inj_n,
                        (unsigned long long)(link.inj_last - link.inj_first),
                        (double)(link.inj_last - link.inj_first) / (double)(link.inj_n - 1));
        if (link.rt_n)
            std::printf("[%s] link: %llu ask round trips at %u cycles a bit (the request's first bit "
                        "to the reply's last): mean %.0f cycles, min %llu, max %llu\n",
                        prog_name.c_str(), (unsigned long long)link.rt_n, (unsigned)link.div,
                        (double)link.rt_sum / (double)link.rt_n, (unsigned long long)link.rt_min,
                        (unsigned long long)link.rt_max);
    }
    cosim_free(cs);
    return rc;
}
