# docs/man/automake.mk -- stt(4), made at build time from its template and
# the counter table.
#
# stt-man fills in each counter's entry of docs/man/stt.4.in (its block, drop
# reason and ip -s link fields) from its row of datapath/stats-list.h, and
# fails, stopping the build, on a counter that one of them lacks; so the
# page cannot drift from the counters.  tests/utilities/test-man-pages.sh
# checks that it does fail so, and that the pages are clean troff.
noinst_PROGRAMS += docs/man/stt-man
docs_man_stt_man_SOURCES = docs/man/stt-man.c
docs_man_stt_man_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/datapath
docs_man_stt_man_LDADD = lib/libstt.a

man_MANS += docs/man/stt.4
EXTRA_DIST += docs/man/stt.4.in
CLEANFILES += docs/man/stt.4
docs/man/stt.4: docs/man/stt.4.in docs/man/stt-man$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) docs/man && \
	docs/man/stt-man $(srcdir)/docs/man/stt.4.in > $@.tmp && \
	mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }
