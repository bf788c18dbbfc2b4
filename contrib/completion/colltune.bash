# SPDX-License-Identifier: BSD-3-Clause
# bash completion for colltune and collbench                 -*- shell-script -*-
#
# Installed twice, as completions/colltune and completions/collbench, since
# bash-completion loads a file by the command's name; either defines both.
#
# The word lists come from the tools' own --help, read once per shell and
# kept in variables (as git's completion keeps its lists): the installed
# binary is the one source, so a new subcommand or option completes without
# editing this file, and a TAB after the first costs no process.

# The caches _colltune_help, _collbench_help and _colltune_help_SUB.
# shellcheck disable=SC2154

# Runs "$@" once per shell and caches its output in the variable $1.
_colltune_cached()
{
    local var=$1
    shift
    if [[ -z ${!var+set} ]]; then
        printf -v "$var" '%s' "$("$@" 2>/dev/null)"
    fi
}

# Long (and short) option names from a --help text on stdin: only the
# lines that start with an option, not options named in the prose.
_colltune_help_opts()
{
    sed -n 's/^ \{1,\}\(-[A-Za-z0-9]\), \(--[A-Za-z0-9][A-Za-z0-9_-]*\).*/\1 \2/p
            s/^ \{1,\}\(--[A-Za-z0-9][A-Za-z0-9_-]*\).*/\1/p'
}

# The values an option's help line lists as "a,b,c or all" (collbench's
# -C, -o, -d), "all" included.
_colltune_help_values()
{
    sed -n "s/^ *\\(-[A-Za-z0-9], \\)\\{0,1\\}$1 [A-Z]* *\\([a-z0-9_]*\\(,[a-z0-9_]*\\)*\\) or all.*/\\2,all/p" |
        tr ',' ' '
}

# COMPREPLY is built without expansion: compgen -W expands each word of its
# list (a space file named '$(cmd).ini' would run cmd), and an unquoted
# COMPREPLY=($(...)) splits 'a b' and globs '*'.  The helpers below are the
# one way this file fills it.

# Adds to COMPREPLY each word after $1 that starts with $1, as it is.
_colltune_add_matches()
{
    local cur=$1 w
    shift
    for w in "$@"; do
        [[ $w == "$cur"* ]] && COMPREPLY+=("$w")
    done
    return 0
}

# COMPREPLY from the blank- or newline-separated words of $1 (a list the
# tools' --help gives) that start with $2; read -a splits without globbing.
_colltune_words_reply()
{
    local -a words
    IFS=$' \t\n' read -r -d '' -a words <<<"$1"
    COMPREPLY=()
    _colltune_add_matches "$2" "${words[@]}"
}

# COMPREPLY from the names of files ($1 -f) or directories (-d) that start
# with $2, one word each: compgen prints one a line, and mapfile neither
# splits nor globs them.
_colltune_files_reply()
{
    mapfile -t COMPREPLY < <(compgen "$1" -- "$2")
    compopt -o filenames 2>/dev/null
    return 0
}

# COMPREPLY from the words in $1 that start with the current word's part
# after its last comma (a LIST option takes a,b,c).
_colltune_list_reply()
{
    local cur=$2 head=''
    if [[ $cur == *,* ]]; then
        head=${cur%,*},
        cur=${cur##*,}
    fi
    _colltune_words_reply "$1" "$cur"
    local i
    for i in "${!COMPREPLY[@]}"; do
        COMPREPLY[i]=$head${COMPREPLY[i]}
    done
    [[ -n $head ]] && compopt -o nospace 2>/dev/null
    return 0
}

# The collbench to read: the one beside colltune (an installed pair, or a
# build tree's src/), else PATH's.
_colltune_collbench()
{
    local self dir
    self=$(type -P -- "$1" 2>/dev/null) || self=
    dir=${self%/*}
    if [[ -n $self && -x $dir/collbench ]]; then
        printf '%s\n' "$dir/collbench"
    elif [[ -n $self && -x $dir/../src/collbench ]]; then
        printf '%s\n' "$dir/../src/collbench"
    else
        printf '%s\n' collbench
    fi
}

# Completes the word cur after prev as collbench's arguments ($1: collbench).
_collbench_word()
{
    local bench=$1 cur=$2 prev=$3
    _colltune_cached _collbench_help "$bench" --help
    case $prev in
    -C | --collectives | -o | --op | -d | --datatype)
        local long
        case $prev in
        -C | --collectives) long=--collectives ;;
        -o | --op) long=--op ;;
        *) long=--datatype ;;
        esac
        _colltune_list_reply "$(_colltune_help_values "$long" <<<"$_collbench_help")" "$cur"
        return
        ;;
    --backend)
        local b
        b=$(sed -n 's/^Backends: \([a-z, ]*\)\..*/\1/p' <<<"$_collbench_help" | tr -d ',')
        _colltune_words_reply "$b" "$cur"
        return
        ;;
    --sync)
        _colltune_words_reply "window barrier batch" "$cur"
        return
        ;;
    --csv | --json | --nccl-lib | --cudart-lib)
        _colltune_files_reply -f "$cur"
        return
        ;;
    esac
    if [[ $cur == -* ]]; then
        _colltune_words_reply "$(_colltune_help_opts <<<"$_collbench_help")" "$cur"
    fi
}

_collbench()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=''
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    _collbench_word "${COMP_WORDS[0]}" "$cur" "$prev"
}

# Adds to COMPREPLY the installed search spaces (NAME for --space NAME)
# that start with $2: PREFIX/share/colltune/spaces beside PREFIX/bin/colltune
# ($1), or a build tree's tuner/spaces.  The names go straight from the
# glob to COMPREPLY, never through a word list or a pipe (a name may hold
# a blank, a newline or $(...)).
_colltune_spaces_reply()
{
    local self dir d f
    self=$(type -P -- "$1" 2>/dev/null) || return 0
    dir=${self%/*}
    for d in "$dir/../share/colltune/spaces" "$dir/spaces"; do
        [[ -d $d ]] || continue
        for f in "$d"/*.ini; do
            [[ -f $f ]] || continue
            f=${f##*/}
            _colltune_add_matches "$2" "${f%.ini}"
        done
        return 0
    done
}

_colltune()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev='' tool=${COMP_WORDS[0]}
    ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()

    _colltune_cached _colltune_help "$tool" --help
    local cmds
    cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p' <<<"$_colltune_help" | tr '\n' ' ')

    # The subcommand, and whether a -- before the cursor hands the rest to
    # collbench.
    local i sub='' dashdash=''
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ -z $sub && " $cmds " == *" ${COMP_WORDS[i]} "* ]]; then
            sub=${COMP_WORDS[i]}
        elif [[ -n $sub && ${COMP_WORDS[i]} == -- ]]; then
            dashdash=1
        fi
    done
    if [[ -z $sub ]]; then
        _colltune_words_reply "$cmds --help --version" "$cur"
        return
    fi
    if [[ -n $dashdash ]]; then
        _collbench_word "$(_colltune_collbench "$tool")" "$cur" "$prev"
        return
    fi

    case $prev in
    --space)
        _colltune_files_reply -f "$cur"
        _colltune_spaces_reply "$tool" "$cur"
        return
        ;;
    --out)
        # sbatch's --out is the script it writes; everyone else's a directory.
        if [[ $sub == sbatch ]]; then
            _colltune_files_reply -f "$cur"
        else
            _colltune_files_reply -d "$cur"
        fi
        return
        ;;
    --collectives)
        local bench
        bench=$(_colltune_collbench "$tool")
        _colltune_cached _collbench_help "$bench" --help
        _colltune_list_reply "$(_colltune_help_values --collectives <<<"$_collbench_help")" "$cur"
        return
        ;;
    --strategy)
        _colltune_words_reply "exhaustive random halving" "$cur"
        return
        ;;
    --objective)
        _colltune_words_reply "max avg" "$cur"
        return
        ;;
    --hostfile | --weights | --collbench | --report | --md | --json | --csv | --plots-dir | --gnuplot)
        _colltune_files_reply -f "$cur"
        return
        ;;
    esac

    if [[ $cur == -* ]]; then
        local var=_colltune_help_${sub//[^A-Za-z0-9]/_}
        _colltune_cached "$var" "$tool" "$sub" --help
        _colltune_words_reply "$(_colltune_help_opts <<<"${!var}") --help" "$cur"
    else
        _colltune_files_reply -f "$cur"
    fi
}

complete -F _colltune colltune
complete -F _collbench collbench
