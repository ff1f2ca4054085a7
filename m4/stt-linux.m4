# stt-linux.m4 -- locate the kernel build tree and the Open vSwitch private
# headers that the kernel modules are built against.        -*- Autoconf -*-
#
# STT_CHECK_LINUX
#   --with-linux=DIR / --without-linux
#   AC_SUBSTs LINUX_BUILD (absolute kernel build dir), LINUX_KVER (the
#   release string, as in /lib/modules/KVER), LINUX_VERSION (X.Y.Z) and
#   LINUX_SERIES (X.Y); AM_CONDITIONAL LINUX_ENABLED.
#
# STT_CHECK_LINUX_SOURCE
#   --with-linux-source=DIR|TARBALL / --without-linux-source
#   Copies net/openvswitch/*.h of the matching kernel source into
#   $(top_builddir)/datapath/ovs-private/net/openvswitch/ and AC_SUBSTs
#   STT_OVS_PRIVATE (absolute path of datapath/ovs-private, or empty);
#   AM_CONDITIONAL HAVE_OVS_PRIVATE.

# _STT_LINUX_FUNCS -- shell helpers, emitted once.
#   stt_makefile_version FILE: print "X.Y.Z" from the VERSION, PATCHLEVEL
#   and SUBLEVEL of a kernel Makefile, following one "include" line (the
#   per-flavour Debian header directories have a one-line Makefile that
#   includes the -common one); print nothing if there are none.
#   stt_abspath PATH: print PATH made absolute (PATH must exist).
AC_DEFUN([_STT_LINUX_FUNCS], [
stt_makefile_var ()
{
  stt_mf=$[]1
  if ! grep "^$[]2 *=" "$stt_mf" >/dev/null 2>&1; then
    stt_mf=`sed -n 's/^include  *//p' "$stt_mf" 2>/dev/null | sed 1q`
  fi
  test -n "$stt_mf" &&
    sed -n "s/^$[]2 *= *\([[0-9]]*\).*/\1/p" "$stt_mf" 2>/dev/null | sed 1q
}
stt_makefile_version ()
{
  stt_mv=`stt_makefile_var "$[]1" VERSION`
  stt_mp=`stt_makefile_var "$[]1" PATCHLEVEL`
  stt_ms=`stt_makefile_var "$[]1" SUBLEVEL`
  if test -n "$stt_mv" && test -n "$stt_mp"; then
    echo "$stt_mv.$stt_mp.${stt_ms:-0}"
  fi
}
stt_abspath ()
{
  if test -d "$[]1"; then
    (cd "$[]1" && pwd)
  else
    stt_ad=`dirname "$[]1"`
    stt_ab=`basename "$[]1"`
    echo "`cd "$stt_ad" && pwd`/$stt_ab"
  fi
}
])

AC_DEFUN([STT_CHECK_LINUX], [
  AC_REQUIRE([_STT_LINUX_FUNCS])
  AC_ARG_WITH([linux],
    [AS_HELP_STRING([--with-linux=DIR],
       [build the kernel modules against the kernel build directory DIR
        (default: /lib/modules/RUNNING-KERNEL/build if present, else the
        newest /lib/modules/*/build)])
AS_HELP_STRING([--without-linux], [do not build the kernel modules])],
    [], [with_linux=default])

  LINUX_BUILD=
  LINUX_KVER=
  LINUX_VERSION=
  LINUX_SERIES=
  AS_CASE([$with_linux],
    [no], [AC_MSG_NOTICE([kernel modules disabled (--without-linux)])],
    [yes|default], [
      AC_MSG_CHECKING([for a kernel build directory])
      stt_running=`uname -r`
      if test -f "/lib/modules/$stt_running/build/Makefile"; then
        LINUX_BUILD=/lib/modules/$stt_running/build
      else
        # Newest installed tree, by version sort of the release names.
        LINUX_BUILD=`ls -d /lib/modules/*/build 2>/dev/null | sort -V | \
          while read d; do test -f "$d/Makefile" && echo "$d"; done | \
          tail -n 1`
      fi
      if test -z "$LINUX_BUILD"; then
        AC_MSG_RESULT([none])
        AC_MSG_ERROR([no kernel build directory found: neither /lib/modules/$stt_running/build (the running kernel) nor any other /lib/modules/*/build exists.
Install kernel headers (Debian: apt-get install linux-headers-amd64, or
linux-headers-$stt_running for the running kernel), pass
--with-linux=DIR to name a kernel build directory, or pass --without-linux
to build the userspace parts only.])
      fi
      AC_MSG_RESULT([$LINUX_BUILD])],
    [
      AC_MSG_CHECKING([for the kernel build directory])
      LINUX_BUILD=$with_linux
      # Accept /lib/modules/KVER as a shorthand for /lib/modules/KVER/build.
      if test ! -f "$LINUX_BUILD/Makefile" && test -f "$LINUX_BUILD/build/Makefile"; then
        LINUX_BUILD=$LINUX_BUILD/build
      fi
      if test ! -f "$LINUX_BUILD/Makefile"; then
        AC_MSG_RESULT([no])
        AC_MSG_ERROR([--with-linux=$with_linux: $LINUX_BUILD/Makefile not found; pass the build directory of a configured kernel, e.g. /lib/modules/KVER/build (Debian: apt-get install linux-headers-KVER)])
      fi
      AC_MSG_RESULT([$LINUX_BUILD])])

  if test -n "$LINUX_BUILD"; then
    LINUX_BUILD=`stt_abspath "$LINUX_BUILD"`

    AC_MSG_CHECKING([kernel release of $LINUX_BUILD])
    # UTS_RELEASE is what "uname -r" and the modules' vermagic say; Debian's
    # include/config/kernel.release can hold the upstream version instead
    # (6.1: "6.1.192" for 6.1.0-57-amd64), so it is only the fallback.
    stt_uts=$LINUX_BUILD/include/generated/utsrelease.h
    stt_rel=$LINUX_BUILD/include/config/kernel.release
    if test -f "$stt_uts"; then
      LINUX_KVER=`sed -n 's/^@%:@define UTS_RELEASE "\(.*\)".*/\1/p' "$stt_uts"`
    fi
    if test -z "$LINUX_KVER" && test -f "$stt_rel"; then
      LINUX_KVER=`cat "$stt_rel"`
    fi
    if test -z "$LINUX_KVER"; then
      AC_MSG_RESULT([unknown])
      AC_MSG_ERROR([$LINUX_BUILD is not a configured kernel build directory: neither include/generated/utsrelease.h nor include/config/kernel.release exists (run make modules_prepare in a kernel source tree, or install the linux-headers package of your kernel)])
    fi
    AC_MSG_RESULT([$LINUX_KVER])

    AC_MSG_CHECKING([kernel version of $LINUX_BUILD])
    # MAJOR/PATCHLEVEL/SUBLEVEL macros first: LINUX_VERSION_CODE clamps
    # the sublevel to 255.  Then the Makefile, then the code.
    stt_vh=$LINUX_BUILD/include/generated/uapi/linux/version.h
    if test -f "$stt_vh"; then
      stt_v=`sed -n 's/^@%:@define LINUX_VERSION_MAJOR \([[0-9]]*\).*/\1/p' "$stt_vh"`
      stt_p=`sed -n 's/^@%:@define LINUX_VERSION_PATCHLEVEL \([[0-9]]*\).*/\1/p' "$stt_vh"`
      stt_s=`sed -n 's/^@%:@define LINUX_VERSION_SUBLEVEL \([[0-9]]*\).*/\1/p' "$stt_vh"`
      if test -n "$stt_v" && test -n "$stt_p" && test -n "$stt_s"; then
        LINUX_VERSION=$stt_v.$stt_p.$stt_s
      fi
    fi
    if test -z "$LINUX_VERSION"; then
      LINUX_VERSION=`stt_makefile_version "$LINUX_BUILD/Makefile"`
    fi
    if test -z "$LINUX_VERSION" && test -f "$stt_vh"; then
      stt_code=`sed -n 's/^@%:@define LINUX_VERSION_CODE \([[0-9]]*\).*/\1/p' "$stt_vh"`
      if test -n "$stt_code"; then
        LINUX_VERSION=`expr $stt_code / 65536`.`expr $stt_code / 256 % 256`.`expr $stt_code % 256`
      fi
    fi
    if test -z "$LINUX_VERSION"; then
      AC_MSG_RESULT([unknown])
      AC_MSG_ERROR([cannot tell the version of the kernel in $LINUX_BUILD: no LINUX_VERSION_* in include/generated/uapi/linux/version.h and no VERSION/PATCHLEVEL in its Makefile])
    fi
    LINUX_SERIES=`echo "$LINUX_VERSION" | sed 's/^\([[0-9]]*\.[[0-9]]*\).*/\1/'`
    AC_MSG_RESULT([$LINUX_VERSION])

    if test ! -f "$LINUX_BUILD/Module.symvers"; then
      AC_MSG_WARN([$LINUX_BUILD/Module.symvers is missing: modpost cannot check the modules' symbol references and their versions])
    fi
  fi

  AC_SUBST([LINUX_BUILD])
  AC_SUBST([LINUX_KVER])
  AC_SUBST([LINUX_VERSION])
  AC_SUBST([LINUX_SERIES])
  AM_CONDITIONAL([LINUX_ENABLED], [test -n "$LINUX_BUILD"])
])

# _STT_OVS_PRIVATE_FAIL(MESSAGE) -- drop half-made private headers, then fail.
m4_define([_STT_OVS_PRIVATE_FAIL],
[{ rm -rf "$stt_priv"; AC_MSG_ERROR([$1]); }])

AC_DEFUN([STT_CHECK_LINUX_SOURCE], [
  AC_REQUIRE([STT_CHECK_LINUX])
  AC_REQUIRE([AC_PROG_MKDIR_P])
  AC_ARG_WITH([linux-source],
    [AS_HELP_STRING([--with-linux-source=DIR|TARBALL],
       [take the private Open vSwitch headers (net/openvswitch/*.h) that
        vport-stt.ko needs from the kernel source tree DIR or the source
        TARBALL; they must be from the same X.Y series as --with-linux
        (default: /usr/src/linux-source-X.Y.tar.xz, as installed by the
        Debian package linux-source-X.Y)])
AS_HELP_STRING([--without-linux-source],
       [build stt.ko only, without vport-stt.ko])],
    [], [with_linux_source=default])

  # Relative to the build tree, which is the current directory.
  stt_priv=datapath/ovs-private
  STT_OVS_PRIVATE=
  stt_series=$LINUX_SERIES

  if test -z "$LINUX_BUILD"; then
    rm -rf "$stt_priv"
    AS_CASE([$with_linux_source],
      [default|no], [],
      [AC_MSG_WARN([--with-linux-source=$with_linux_source is ignored: the kernel modules are disabled (--without-linux)])])
  elif test "x$with_linux_source" = xno; then
    AC_MSG_NOTICE([vport-stt.ko disabled (--without-linux-source): building stt.ko only])
    rm -rf "$stt_priv"
  elif test -f "$LINUX_BUILD/.config" &&
       ! grep '^CONFIG_OPENVSWITCH=[[ym]]' "$LINUX_BUILD/.config" >/dev/null; then
    AC_MSG_WARN([the kernel in $LINUX_BUILD is built without Open vSwitch (CONFIG_OPENVSWITCH is not set): building stt.ko only, without vport-stt.ko])
    rm -rf "$stt_priv"
  else
    AC_MSG_CHECKING([for a Linux source tree or tarball])
    stt_src=$with_linux_source
    AS_CASE([$stt_src],
      [default|yes],
        [stt_src=
         for stt_try in /usr/src/linux-source-$stt_series.tar.xz \
                        /usr/src/linux-source-$stt_series; do
           if test -e "$stt_try"; then stt_src=$stt_try; break; fi
         done
         if test -z "$stt_src"; then
           AC_MSG_RESULT([no])
           _STT_OVS_PRIVATE_FAIL([vport-stt.ko needs the private Open vSwitch headers (net/openvswitch/*.h) of Linux $stt_series, which linux-headers packages do not ship, and /usr/src/linux-source-$stt_series.tar.xz does not exist.
Install linux-source-$stt_series (apt-get install linux-source-$stt_series), or pass
--with-linux-source=DIR|TARBALL naming a Linux $stt_series source tree or tarball,
or pass --without-linux-source to build stt.ko only.])
         fi])
    if test ! -e "$stt_src"; then
      AC_MSG_RESULT([no])
      _STT_OVS_PRIVATE_FAIL([--with-linux-source=$stt_src: no such file or directory; pass a Linux $stt_series source tree or tarball (Debian: apt-get install linux-source-$stt_series, then --with-linux-source=/usr/src/linux-source-$stt_series.tar.xz), or --without-linux-source to build stt.ko only])
    fi
    stt_src=`stt_abspath "$stt_src"`
    AC_MSG_RESULT([$stt_src])

    # A stamp naming the source (and, for a tarball, its size and mtime)
    # lets configure skip the slow extraction when nothing changed.
    if test -d "$stt_src"; then
      stt_stamp="dir $stt_src"
    else
      stt_stamp="tarball $stt_src "`stat -L -c '%s %Y' "$stt_src" 2>/dev/null || ls -lL "$stt_src"`
    fi

    AC_MSG_CHECKING([for the private Open vSwitch headers])
    if test -f "$stt_priv/stamp" &&
       test "x`cat "$stt_priv/stamp"`" = "x$stt_stamp" &&
       test -f "$stt_priv/net/openvswitch/vport.h" &&
       test -f "$stt_priv/Makefile"; then
      AC_MSG_RESULT([$stt_priv (cached)])
    else
      rm -rf "$stt_priv"
      $MKDIR_P "$stt_priv/net/openvswitch"
      if test -d "$stt_src"; then
        if test ! -f "$stt_src/Makefile" ||
           test ! -f "$stt_src/net/openvswitch/vport.h"; then
          AC_MSG_RESULT([no])
          _STT_OVS_PRIVATE_FAIL([$stt_src is not a Linux source tree: it lacks Makefile or net/openvswitch/vport.h (Debian: apt-get install linux-source-$stt_series and pass --with-linux-source=/usr/src/linux-source-$stt_series.tar.xz)])
        fi
        cp "$stt_src/Makefile" "$stt_priv/Makefile" &&
        cp "$stt_src"/net/openvswitch/*.h "$stt_priv/net/openvswitch/" ||
          _STT_OVS_PRIVATE_FAIL([cannot copy the headers from $stt_src/net/openvswitch into $stt_priv])
      else
        # Extract only TOP/Makefile and TOP/net/openvswitch/*.h, whatever
        # the top directory is called (linux-source-X.Y, linux-X.Y.Z...).
        stt_tmp=$stt_priv/tmp
        $MKDIR_P "$stt_tmp"
        AS_ECHO_N(["(extracting from $stt_src) "]) >&AS_MESSAGE_FD
        echo "tar -xf $stt_src -C $stt_tmp --no-wildcards-match-slash --wildcards '*/Makefile' '*/net/openvswitch/*.h'" >&AS_MESSAGE_LOG_FD
        if ! tar -xf "$stt_src" -C "$stt_tmp" --no-wildcards-match-slash \
               --wildcards '*/Makefile' '*/net/openvswitch/*.h' >&AS_MESSAGE_LOG_FD 2>&1; then
          AC_MSG_RESULT([no])
          _STT_OVS_PRIVATE_FAIL([cannot extract */Makefile and */net/openvswitch/*.h from $stt_src (see config.log): is it a Linux source tarball? (Debian: apt-get install linux-source-$stt_series)])
        fi
        stt_top=`ls -d "$stt_tmp"/*/net/openvswitch 2>/dev/null | sed 1q`
        stt_top=`echo "$stt_top" | sed 's,/net/openvswitch$,,'`
        if test ! -f "$stt_top/Makefile" ||
           test ! -f "$stt_top/net/openvswitch/vport.h"; then
          AC_MSG_RESULT([no])
          _STT_OVS_PRIVATE_FAIL([$stt_src does not hold a Linux source tree with Makefile and net/openvswitch/vport.h])
        fi
        mv "$stt_top/Makefile" "$stt_priv/Makefile" &&
        mv "$stt_top"/net/openvswitch/*.h "$stt_priv/net/openvswitch/" &&
        rm -rf "$stt_tmp" ||
          _STT_OVS_PRIVATE_FAIL([cannot move the extracted headers into $stt_priv])
      fi
      echo "$stt_stamp" > "$stt_priv/stamp"
      AC_MSG_RESULT([$stt_priv])
    fi

    AC_MSG_CHECKING([version of the Linux source])
    stt_src_version=`stt_makefile_version "$stt_priv/Makefile"`
    if test -z "$stt_src_version"; then
      AC_MSG_RESULT([unknown])
      _STT_OVS_PRIVATE_FAIL([cannot read VERSION and PATCHLEVEL from the Makefile of $stt_src])
    fi
    AC_MSG_RESULT([$stt_src_version])
    stt_src_series=`echo "$stt_src_version" | sed 's/^\([[0-9]]*\.[[0-9]]*\).*/\1/'`
    if test "x$stt_src_series" != "x$LINUX_SERIES"; then
      _STT_OVS_PRIVATE_FAIL([version mismatch: the Linux source $stt_src is version $stt_src_version, but the kernel in $LINUX_BUILD ($LINUX_KVER) is version $LINUX_VERSION.
The private Open vSwitch headers must come from the same $LINUX_SERIES series as the kernel.
Install linux-source-$LINUX_SERIES (apt-get install linux-source-$LINUX_SERIES) and pass
--with-linux-source=/usr/src/linux-source-$LINUX_SERIES.tar.xz (or a Linux $LINUX_SERIES tree),
or pass --without-linux-source to build stt.ko only.])
    fi
    if test "x$stt_src_version" != "x$LINUX_VERSION"; then
      AC_MSG_WARN([the Linux source $stt_src is version $stt_src_version, but the kernel in $LINUX_BUILD ($LINUX_KVER) is version $LINUX_VERSION.
Using its net/openvswitch/*.h for vport-stt.ko anyway: only the SUBLEVEL differs,
and stable updates within $LINUX_SERIES.y do not change these private Open vSwitch headers.])
    fi
    STT_OVS_PRIVATE=`cd "$stt_priv" && pwd`
  fi

  AC_SUBST([STT_OVS_PRIVATE])
  AM_CONDITIONAL([HAVE_OVS_PRIVATE], [test -n "$STT_OVS_PRIVATE"])
])
