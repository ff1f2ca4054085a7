# stt-linux.m4 -- locate the kernel build tree that the kernel modules are
# built against.                                            -*- Autoconf -*-
#
# STT_CHECK_LINUX
#   --with-linux=DIR / --without-linux
#   AC_SUBSTs LINUX_BUILD (absolute kernel build dir), LINUX_KVER (the
#   release string, as in /lib/modules/KVER), LINUX_VERSION (X.Y.Z) and
#   LINUX_SERIES (X.Y); AM_CONDITIONAL LINUX_ENABLED.
#
# vport-stt.ko is built when that kernel has Open vSwitch; datapath/Kbuild
# checks it against the kernel's own openvswitch.ko.

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
